import { SOLANA_PROGRAM_ADDRESSES } from "./constants.js";
import type { SolanaCosignError } from "./errors.js";
import { addressOf, findProgramAddress, parseAddress } from "./internal/address.js";

/** Parameters of {@link getAssociatedTokenAccountAddress}. */
export interface GetAssociatedTokenAccountAddressParameters {
  /** The wallet that owns the token account (base58). */
  owner: string;
  /** The token mint (base58). */
  mint: string;
  /** SPL Token (default) or Token-2022. */
  tokenProgram?: string | undefined;
}

/** What {@link getAssociatedTokenAccountAddress} returns: the associated token account address, base58. */
export type GetAssociatedTokenAccountAddressReturnType = string;

/** The error {@link getAssociatedTokenAccountAddress} throws: `SOL_INVALID_ADDRESS` for an owner, mint or program that is not an address (or is missing). */
export type GetAssociatedTokenAccountAddressErrorType = SolanaCosignError<"SOL_INVALID_ADDRESS">;

const cache = new Map<string, string>();
const CACHE_LIMIT = 256;

/**
 * The associated token account address of `owner` for `mint` (the program-derived address of the Associated Token
 * Account program), base58. Results are memoized, since deriving costs a few curve checks.
 *
 * @example
 * ```ts
 * import { getAssociatedTokenAccountAddress, SOLANA_PROGRAM_ADDRESSES } from "@swapintent/solana";
 *
 * const escrowTokenAccount = getAssociatedTokenAccountAddress({ owner: escrowOwner, mint });
 * const escrow2022 = getAssociatedTokenAccountAddress({
 *   owner: escrowOwner,
 *   mint,
 *   tokenProgram: SOLANA_PROGRAM_ADDRESSES.token2022,
 * });
 * ```
 */
export function getAssociatedTokenAccountAddress(
  parameters: GetAssociatedTokenAccountAddressParameters,
): GetAssociatedTokenAccountAddressReturnType {
  // Each field read once; a missing parameters object, or a read that throws, is a missing owner (a coded
  // refusal), never a TypeError.
  const owner = readOnce(parameters, "owner");
  const mint = readOnce(parameters, "mint");
  const tokenProgram = readOnce(parameters, "tokenProgram");
  const ownerAddress = parseAddress(owner, "owner");
  const programAddress = parseAddress(tokenProgram ?? SOLANA_PROGRAM_ADDRESSES.token, "tokenProgram");
  const mintAddress = parseAddress(mint, "mint");
  const key = `${ownerAddress.address}:${mintAddress.address}:${programAddress.address}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const result = addressOf(
    findProgramAddress(
      [ownerAddress.bytes, programAddress.bytes, mintAddress.bytes],
      parseAddress(SOLANA_PROGRAM_ADDRESSES.associatedToken, "program").bytes,
    ),
  );
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, result);
  return result;
}

/** One field of what the caller passed; a missing object, or a read that throws (a getter, a Proxy trap), is no value. */
function readOnce(parameters: unknown, key: keyof GetAssociatedTokenAccountAddressParameters): unknown {
  try {
    return typeof parameters === "object" && parameters !== null
      ? (parameters as Record<string, unknown>)[key]
      : undefined;
  } catch {
    return undefined;
  }
}
