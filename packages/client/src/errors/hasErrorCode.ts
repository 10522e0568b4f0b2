import { isSwapIntentError } from "./swapIntentError.js";

/**
 * The one rule every package's error guard follows (`isPermit2Error`, `isBitcoinError`, `isSolanaCosignError`): `error`
 * is a swapintent error (see `isSwapIntentError`) whose code is one of `codes`, the package's exact list, and, when
 * `code` is given, that very code. An exact list, not a prefix: a guard that narrows to the package's union only
 * says so when the code really is in it (a code that a newer copy of the package added is a swapintent error, but
 * not one of this copy's codes).
 *
 * @example
 * ```ts
 * const myErrorCodes = { MY_AMOUNT_MISMATCH: true, MY_INPUT_INVALID: true } as const;
 * export function isMyError<C extends keyof MyErrorDetails>(error: unknown, code?: C): error is CodedError<MyErrorDetails, C> {
 *   return hasErrorCode(error, myErrorCodes, code);
 * }
 * ```
 */
export function hasErrorCode(error: unknown, codes: Readonly<Record<string, true>>, code?: string): boolean {
  if (!isSwapIntentError(error) || !Object.hasOwn(codes, error.code)) return false;
  return code === undefined || error.code === code;
}
