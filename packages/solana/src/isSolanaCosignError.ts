import { hasErrorCode } from "@swapintent/client/internal";
import { SOLANA_COSIGN_ERROR_CODES, type SolanaCosignError, type SolanaCosignErrorCode } from "./errors.js";

/**
 * True when `error` is a failure of `@swapintent/solana`: a swapintent error whose code is one of this package's
 * exact list of {@link SolanaCosignErrorCode} (the rule every package's guard follows, `hasErrorCode` of
 * `@swapintent/client`), and, when `code` is given, one with exactly that code. Narrows `error.code` to `code` (or to
 * the whole union), and with it `error.details` to that code's facts, so a misspelt code does not compile. Like
 * `isSwapIntentError`, it accepts an error from a duplicated copy of `@swapintent/client`. An error of another
 * package (a `PERMIT2_` or `BTC_` code, a service error) is not a Solana error, and neither is a `SOL_` code this
 * copy of the package does not know (one a newer version added): its details could not be typed.
 *
 * @example
 * ```ts
 * import { isSolanaCosignError, signCosignTransaction } from "@swapintent/solana";
 *
 * try {
 *   await signCosignTransaction({ intent, quote, escrow: { owner: escrowOwner }, signer: wallet });
 * } catch (error) {
 *   // error.details is { expected: bigint; actual: bigint }
 *   if (isSolanaCosignError(error, "SOL_AMOUNT_MISMATCH")) showWarning(error.details.expected, error.details.actual);
 *   else throw error;
 * }
 * ```
 */
export function isSolanaCosignError<C extends SolanaCosignErrorCode = SolanaCosignErrorCode>(
  error: unknown,
  code?: C,
): error is SolanaCosignError<C> {
  return hasErrorCode(error, SOLANA_COSIGN_ERROR_CODES, code);
}
