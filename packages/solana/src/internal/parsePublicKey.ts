import { PublicKey } from "@solana/web3.js";
import { solanaError } from "../errors.js";
import { escapeUnsafe } from "./text.js";

/** A web3.js `PublicKey` from a base58 string or a `PublicKey`; throws `SOL_INVALID_ADDRESS` for anything else. */
export function parsePublicKey(value: unknown, name: string): PublicKey {
  if (value instanceof PublicKey) return value;
  if (typeof value === "object" && value !== null && typeof (value as PublicKey).toBase58 === "function") {
    return parsePublicKey((value as PublicKey).toBase58(), name);
  }
  if (typeof value === "string" && /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value)) {
    try {
      // The constructor requires exactly 32 decoded bytes; base58 is bijective, so `value` is canonical.
      return new PublicKey(value);
    } catch {
      // fall through to the error below
    }
  }
  throw solanaError("SOL_INVALID_ADDRESS", `The ${name} is not a base58 32-byte Solana address.`, {
    parameter: name,
    value: escapeUnsafe(value),
  });
}

/** The base58 form of an address given as a string or `PublicKey` (validated; see {@link parsePublicKey}). */
export function normalizeAddress(value: unknown, name: string): string {
  const key = parsePublicKey(value, name);
  return typeof value === "string" ? value : key.toBase58();
}
