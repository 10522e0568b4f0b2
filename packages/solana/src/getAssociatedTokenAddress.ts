import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "./constants.js";
import type { SolanaError } from "./errors.js";
import { addressOf, findProgramAddress, parseAddress } from "./internal/address.js";

/** Parameters of {@link getAssociatedTokenAddress}. */
export interface GetAssociatedTokenAddressParameters {
  /** The wallet that owns the token account (base58). */
  owner: string;
  /** The token mint (base58). */
  mint: string;
  /** SPL Token (default) or Token-2022. */
  tokenProgram?: string | undefined;
}

/** What {@link getAssociatedTokenAddress} returns: the associated token account address, base58. */
export type GetAssociatedTokenAddressReturnType = string;

/** The error {@link getAssociatedTokenAddress} throws (`SOL_INVALID_ADDRESS` for an owner, mint or program that is not an address). */
export type GetAssociatedTokenAddressErrorType = SolanaError;

const cache = new Map<string, string>();
const CACHE_LIMIT = 256;

/**
 * The associated token account address of `owner` for `mint` (the program-derived address of the Associated Token
 * Account program), base58. Results are memoized, since deriving costs a few curve checks.
 *
 * @example
 * ```ts
 * import { getAssociatedTokenAddress, TOKEN_2022_PROGRAM_ADDRESS } from "@swapintent/solana";
 *
 * const escrowTokenAccount = getAssociatedTokenAddress({ owner: escrowOwner, mint });
 * const escrow2022 = getAssociatedTokenAddress({ owner: escrowOwner, mint, tokenProgram: TOKEN_2022_PROGRAM_ADDRESS });
 * ```
 */
export function getAssociatedTokenAddress(
  parameters: GetAssociatedTokenAddressParameters,
): GetAssociatedTokenAddressReturnType {
  const tokenProgram = parameters.tokenProgram ?? TOKEN_PROGRAM_ADDRESS;
  const key = `${parameters.owner}:${parameters.mint}:${tokenProgram}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const result = addressOf(
    findProgramAddress(
      [
        parseAddress(parameters.owner, "owner").bytes,
        parseAddress(tokenProgram, "tokenProgram").bytes,
        parseAddress(parameters.mint, "mint").bytes,
      ],
      parseAddress(ASSOCIATED_TOKEN_PROGRAM_ADDRESS, "program").bytes,
    ),
  );
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, result);
  return result;
}
