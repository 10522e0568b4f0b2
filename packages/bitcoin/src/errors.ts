import { BaseError, isSwapIntentError } from "@swapintent/client";

/** Every failure code of `@swapintent/bitcoin`, at runtime (the README's table lists each). */
const bitcoinErrorCodes = [
  "BTC_MECHANISM_MISMATCH",
  "BTC_PSBT_INVALID",
  "BTC_PSBT_FIELD_NOT_ALLOWED",
  "BTC_QUOTE_INVALID",
  "BTC_POLICY_INVALID",
  "BTC_PUBLIC_KEY_INVALID",
  "BTC_INPUT_INDEX_INVALID",
  "BTC_UTXO_MISSING",
  "BTC_UTXO_MISMATCH",
  "BTC_INPUT_NOT_SEGWIT",
  "BTC_NON_WITNESS_UTXO_REQUIRED",
  "BTC_INPUT_NOT_USERS",
  "BTC_INPUT_FIELD_NOT_ALLOWED",
  "BTC_INPUT_NOT_LISTED_SIGNED",
  "BTC_SIGHASH_NOT_ALLOWED",
  "BTC_TX_TIMELOCKED",
  "BTC_TX_NOT_STANDARD",
  "BTC_HTLC_MISSING",
  "BTC_HTLC_INTERNAL_KEY_MISMATCH",
  "BTC_HTLC_SCRIPT_MISMATCH",
  "BTC_HTLC_SECRET_HASH_MISMATCH",
  "BTC_HTLC_REFUND_KEY_MISMATCH",
  "BTC_HTLC_CLAIM_KEY_MISMATCH",
  "BTC_HTLC_TIMELOCK_OUT_OF_BOUNDS",
  "BTC_HTLC_AMOUNT_MISMATCH",
  "BTC_OUTPUT_NOT_USERS",
  "BTC_OUTPUT_DUST",
  "BTC_CHANGE_SPLIT",
  "BTC_CHANGE_SCRIPT_MISMATCH",
  "BTC_FEE_INVALID",
  "BTC_FEE_TOO_LOW",
  "BTC_FEE_TOO_HIGH",
  "BTC_SIGNER_KEY_MISMATCH",
  "BTC_SIGNER_UNSUPPORTED",
  "BTC_SIGNATURE_INVALID",
  "BTC_TX_MODIFIED",
  "BTC_REFUND_INVALID",
] as const;

const bitcoinErrorCodeSet: ReadonlySet<string> = /* @__PURE__ */ new Set(bitcoinErrorCodes);

/** Every failure code of `@swapintent/bitcoin` (see the README's table). */
export type BitcoinErrorCode = (typeof bitcoinErrorCodes)[number];

/** The error every function of `@swapintent/bitcoin` throws: a `BaseError` whose `code` is a `BitcoinErrorCode`. */
export type BitcoinError = BaseError<BitcoinErrorCode>;

/**
 * Build the package's `BaseError` for `code`. Internal: the code is checked against `BitcoinErrorCode` by the
 * compiler, so a misspelt code does not build.
 */
export function createBitcoinError(
  code: BitcoinErrorCode,
  shortMessage: string,
  details: Record<string, unknown> = {},
  cause?: unknown,
): BitcoinError {
  return new BaseError(code, shortMessage, { details, cause });
}

/**
 * True when `error` is an error of `@swapintent/bitcoin` (its `code` is a `BitcoinErrorCode`), and, when `code` is
 * given, that very code. Narrows `error` to `BaseError<code>`. Works across duplicated copies of the client
 * package, like `isSwapIntentError`.
 *
 * @example
 * ```ts
 * import { isBitcoinError, signHtlcPsbt } from "@swapintent/bitcoin";
 *
 * try {
 *   await signHtlcPsbt({ ecc, intent, quote, userPublicKey, signer });
 * } catch (error) {
 *   if (isBitcoinError(error, "BTC_FEE_TOO_HIGH")) console.log(error.details.feeLots);
 *   else throw error;
 * }
 * ```
 */
export function isBitcoinError<C extends BitcoinErrorCode = BitcoinErrorCode>(
  error: unknown,
  code?: C,
): error is BaseError<C> {
  if (!isSwapIntentError(error) || !bitcoinErrorCodeSet.has(error.code)) return false;
  return code === undefined || error.code === code;
}

/** Every code of the union, in the order of the README's table (for the documentation test). */
export function listBitcoinErrorCodes(): readonly BitcoinErrorCode[] {
  return bitcoinErrorCodes;
}
