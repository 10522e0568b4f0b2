import { isSwapIntentError } from "@swapintent/client";
import type { SolanaError, SolanaErrorCode } from "./errors.js";

/** Every code of this package is `SOL_` and capitals, digits and underscores. */
const SOLANA_CODE = /^SOL_[A-Z0-9_]+$/;

/**
 * True when `error` is a failure of `@swapintent/solana` (a swapintent error whose code is one of
 * {@link SolanaErrorCode}), and, when `code` is given, one with exactly that code. Narrows `error.code` to `code`
 * (or to the whole union), so a misspelt code does not compile. Like `isSwapIntentError`, it accepts an error from a
 * duplicated copy of `@swapintent/client`; an error of another package (a `PERMIT2_` or `BTC_` code, a service
 * error) is not a Solana error. Without `code` it goes by the `SOL_` prefix every code carries, so an error of
 * another copy of this package (a code a newer version added) is still recognized.
 *
 * @example
 * ```ts
 * import { isSolanaError, signCosignTransaction } from "@swapintent/solana";
 *
 * try {
 *   await signCosignTransaction({ intent, quote, escrow: { owner: escrowOwner }, signer: wallet });
 * } catch (error) {
 *   if (isSolanaError(error, "SOL_AMOUNT_MISMATCH")) showWarning(error.details); // error.code is "SOL_AMOUNT_MISMATCH"
 *   else throw error;
 * }
 * ```
 */
export function isSolanaError<TCode extends SolanaErrorCode = SolanaErrorCode>(
  error: unknown,
  code?: TCode,
): error is SolanaError<TCode> {
  if (!isSwapIntentError(error)) return false;
  return code === undefined ? SOLANA_CODE.test(error.code) : error.code === code;
}
