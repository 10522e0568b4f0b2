import { sha256 } from "@noble/hashes/sha2";
import { solanaError } from "../errors.js";
import { base58Decode, base58Encode } from "./base58.js";

/** Anything that names an address: base58 text (a Kit `Address` is one), or an object with `toBase58()` (a web3.js `PublicKey`). */
export type AddressLike =
  | string
  | {
      /** The address as base58 text. */
      toBase58(): string;
    };

/** An address checked to be base58 of exactly 32 bytes, in both forms. */
export interface ParsedAddress {
  /** Base58, canonical (base58 is bijective, so the text given is the text kept). */
  address: string;
  bytes: Uint8Array;
}

/** Parse an address given as base58 text or a `PublicKey`-like object; throws `SOL_INVALID_ADDRESS` for anything else. */
export function parseAddress(value: unknown, name: string): ParsedAddress {
  let text = value;
  if (typeof value === "object" && value !== null) {
    // A PublicKey-like object: its method is read and called once; whatever either throws (a getter, a Proxy
    // trap) makes it no address.
    try {
      const toBase58: unknown = (value as { toBase58?: unknown }).toBase58;
      text = typeof toBase58 === "function" ? Reflect.apply(toBase58, value, []) : undefined;
    } catch {
      text = undefined;
    }
  }
  if (typeof text === "string" && /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(text)) {
    const bytes = base58Decode(text);
    if (bytes?.length === 32) return { address: text, bytes };
  }
  throw solanaError("SOL_INVALID_ADDRESS", `The ${name} is not a base58 32-byte Solana address.`, {
    parameter: name,
    // Only its type: what was put where an address belongs may be a seed or secret key (base58, hex, bytes).
    value: typeof value,
  });
}

/**
 * The address of a signer (a web3.js signer's `publicKey`, a Kit signer's `address`, a wallet account's `address`):
 * like {@link parseAddress}, but an unusable one is the signer's fault, `SOL_SIGNER_INVALID`.
 */
export function parseSignerAddress(value: unknown, name: string): ParsedAddress {
  try {
    return parseAddress(value, name);
  } catch (cause) {
    throw solanaError(
      "SOL_SIGNER_INVALID",
      `The signer's ${name} is not a Solana address.`,
      { reason: `${name} is not an address` },
      cause,
    );
  }
}

/** The base58 form of an address given as text or a `PublicKey`-like object (validated; see {@link parseAddress}). */
export function normalizeAddress(value: unknown, name: string): string {
  return parseAddress(value, name).address;
}

/** Base58 of 32 key bytes read from a transaction. */
export function addressOf(bytes: Uint8Array): string {
  return base58Encode(bytes);
}

/** The field prime of ed25519, 2^255 - 19. */
const P = 2n ** 255n - 19n;
/** The curve constant d = -121665 / 121666 mod p. */
const D = 37095705934669439343138083508754565189542113879843219016388785533085940283555n;

function powMod(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = base % P;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
  }
  return result;
}

/**
 * Whether 32 bytes decompress to a point of the ed25519 curve, as the runtime decides it for a program-derived
 * address (curve25519-dalek's `CompressedEdwardsY::decompress`): y is the low 255 bits (little-endian) and a point
 * exists when x^2 = (y^2 - 1) / (d y^2 + 1) has a root, i.e. (y^2 - 1)(d y^2 + 1) is zero or a square mod p (Euler's
 * criterion). d y^2 + 1 is never zero, since -1/d is not a square.
 */
export function isOnCurve(bytes: Uint8Array): boolean {
  let y = 0n;
  for (let i = 31; i >= 0; i--) y = (y << 8n) | BigInt(bytes[i]!);
  y &= (1n << 255n) - 1n;
  const y2 = (y * y) % P;
  const w = (((y2 - 1n + P) % P) * ((D * y2 + 1n) % P)) % P;
  return w === 0n || powMod(w, (P - 1n) / 2n) === 1n;
}

const PDA_MARKER = new TextEncoder().encode("ProgramDerivedAddress");

/**
 * The program-derived address of `seeds` under `program`: the first bump from 255 down whose
 * `sha256(seeds ‖ bump ‖ program ‖ "ProgramDerivedAddress")` is off the curve (the runtime's `find_program_address`).
 */
export function findProgramAddress(seeds: readonly Uint8Array[], program: Uint8Array): Uint8Array {
  for (let bump = 255; bump >= 0; bump--) {
    const hash = sha256
      .create()
      .update(Uint8Array.from(seeds.flatMap((seed) => [...seed])))
      .update(Uint8Array.of(bump))
      .update(program)
      .update(PDA_MARKER)
      .digest();
    if (!isOnCurve(hash)) return hash;
  }
  // Unreachable in practice (each bump has about even odds); the runtime fails the same way.
  throw solanaError("SOL_INVALID_ADDRESS", "No program-derived address exists for these seeds.", {
    parameter: "seeds",
    value: "",
  });
}
