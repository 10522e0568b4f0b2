import type { HexString } from "@swapintent/client";
import type { Permit2Error } from "./errors.js";
import { createPermit2Error } from "./internal/fail.js";

/** Parameters of {@link normalizeSignature}. */
export interface NormalizeSignatureParameters {
  /** A 65-byte `r ‖ s ‖ v` signature as hex (with or without `0x`); `v` may be 0/1 or 27/28. */
  signature: string;
}

const signaturePattern = /^(0x)?[0-9a-fA-F]{130}$/;
/** The order of secp256k1's group. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** What {@link normalizeSignature} returns. */
export type NormalizeSignatureReturnType = HexString;

/** The error {@link normalizeSignature} throws. */
export type NormalizeSignatureErrorType = Permit2Error<"PERMIT2_SIGNATURE_INVALID">;

/**
 * Returns the 65-byte signature as lowercase `0x` hex with `v` normalized to 27 or 28, whichever form
 * (0/1 or 27/28) the wallet returned, and `s` in the lower half of the curve order (a high-`s` signature becomes
 * its low-`s` twin, `v` flipped: the same signer over the same digest). Permit2 and the service expect 27/28;
 * Permit2's `ecrecover` takes either `s`, but many verifiers (EIP-2, OpenZeppelin's ECDSA) take only low `s`.
 *
 * @throws `Permit2Error` with code `PERMIT2_SIGNATURE_INVALID` when the input is not 65 bytes of hex, `v` is not 0, 1,
 * 27 or 28, or `r` or `s` is 0 or not below the curve order.
 *
 * @example
 * ```ts
 * import { normalizeSignature } from "@swapintent/permit2";
 *
 * const signature = normalizeSignature({ signature: await device.signTypedData(typedData) }); // v 0/1 -> 27/28
 * ```
 */
export function normalizeSignature({
  signature,
}: NormalizeSignatureParameters): NormalizeSignatureReturnType {
  if (typeof signature !== "string" || !signaturePattern.test(signature))
    throw createPermit2Error("PERMIT2_SIGNATURE_INVALID", "A signature is 65 bytes of hex.", {
      reason: "length",
      length: typeof signature === "string" ? signature.replace(/^0x/, "").length / 2 : null,
    });
  const body = signature.replace(/^0x/, "").toLowerCase();
  const v = Number.parseInt(body.slice(128), 16);
  let normalized: number;
  if (v === 0 || v === 1) normalized = v + 27;
  else if (v === 27 || v === 28) normalized = v;
  else
    throw createPermit2Error("PERMIT2_SIGNATURE_INVALID", "The signature's v is not 0, 1, 27 or 28.", {
      reason: "v",
      v,
    });
  const r = BigInt(`0x${body.slice(0, 64)}`);
  const s = BigInt(`0x${body.slice(64, 128)}`);
  if (!r || r >= SECP256K1_N || !s || s >= SECP256K1_N)
    throw createPermit2Error("PERMIT2_SIGNATURE_INVALID", "The signature's r or s is out of range.", {
      reason: "range",
    });
  const high = s > SECP256K1_N / 2n;
  return `0x${body.slice(0, 64)}${(high ? SECP256K1_N - s : s).toString(16).padStart(64, "0")}${(high ? 55 - normalized : normalized).toString(16)}`;
}
