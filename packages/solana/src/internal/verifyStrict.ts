import { ed25519 } from "@noble/curves/ed25519";
import { sha512 } from "@noble/hashes/sha2";

/** A little-endian unsigned integer. */
function le(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
}

/**
 * Ed25519 verification as the Solana runtime does it (ed25519-dalek `verify_strict`), not the cofactored ZIP-215
 * check noble's `verify` makes: S below the group order, neither R nor the public key of small order, and the
 * cofactorless equation R = SB - kA compared by its encoding (so R's encoding must be the canonical one). A signature
 * that passes noble's check but not this one is refused by the runtime: a wallet could hand one back to make the
 * approval fail on chain while every check here passed.
 */
export function verifyStrict(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  // Read here, not at module level: a top-level read would keep ed25519 in bundles that never verify.
  const Point = ed25519.ExtendedPoint;
  const L = ed25519.CURVE.n;
  const rBytes = signature.subarray(0, 32);
  const s = le(signature.subarray(32));
  if (s >= L) return false;
  let A: InstanceType<typeof ed25519.ExtendedPoint>;
  let R: InstanceType<typeof ed25519.ExtendedPoint>;
  try {
    A = Point.fromHex(publicKey, false);
    R = Point.fromHex(rBytes, false);
  } catch {
    return false;
  }
  if (A.isSmallOrder() || R.isSmallOrder()) return false;
  const k = le(sha512(Uint8Array.from([...rBytes, ...publicKey, ...message]))) % L;
  const expected = Point.BASE.multiplyUnsafe(s).subtract(A.multiplyUnsafe(k)).toRawBytes();
  for (let i = 0; i < 32; i++) if (expected[i] !== rBytes[i]) return false;
  return true;
}
