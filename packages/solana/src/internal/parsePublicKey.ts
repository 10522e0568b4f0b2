import { PublicKey } from "@solana/web3.js";
import { BaseError } from "@swapintent/client";

/** A web3.js `PublicKey` from a base58 string or a `PublicKey`; throws `SOL_INVALID_ADDRESS` for anything else. */
export function parsePublicKey(value: unknown, name: string): PublicKey {
  if (value instanceof PublicKey) return value;
  if (typeof value === "object" && value !== null && typeof (value as PublicKey).toBase58 === "function") {
    return parsePublicKey((value as PublicKey).toBase58(), name);
  }
  if (typeof value === "string" && /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value)) {
    try {
      const key = new PublicKey(value);
      if (key.toBase58() === value) return key;
    } catch {
      // fall through to the error below
    }
  }
  throw new BaseError("SOL_INVALID_ADDRESS", `The ${name} is not a base58 32-byte Solana address.`, {
    details: { [name]: typeof value === "string" ? value : typeof value },
  });
}
