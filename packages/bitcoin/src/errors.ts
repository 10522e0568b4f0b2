import { BaseError } from "@swapintent/client";

/** Every failure code of `@swapintent/bitcoin`. */
export type BitcoinErrorCode =
  | "BTC_INTENT_NOT_HTLC"
  | "BTC_PSBT_INVALID"
  | "BTC_PSBT_FIELD_NOT_ALLOWED"
  | "BTC_QUOTE_INVALID"
  | "BTC_POLICY_INVALID"
  | "BTC_PUBLIC_KEY_INVALID"
  | "BTC_INPUT_INDEX_INVALID"
  | "BTC_UTXO_MISSING"
  | "BTC_UTXO_MISMATCH"
  | "BTC_INPUT_NOT_SEGWIT"
  | "BTC_NON_WITNESS_UTXO_REQUIRED"
  | "BTC_INPUT_NOT_USERS"
  | "BTC_INPUT_FIELD_NOT_ALLOWED"
  | "BTC_INPUT_NOT_LISTED_SIGNED"
  | "BTC_SIGHASH_NOT_ALLOWED"
  | "BTC_TX_TIMELOCKED"
  | "BTC_HTLC_MISSING"
  | "BTC_HTLC_INTERNAL_KEY_MISMATCH"
  | "BTC_HTLC_SCRIPT_MISMATCH"
  | "BTC_HTLC_SECRET_HASH_MISMATCH"
  | "BTC_HTLC_REFUND_KEY_MISMATCH"
  | "BTC_HTLC_CLAIM_KEY_MISMATCH"
  | "BTC_HTLC_TIMELOCK_OUT_OF_BOUNDS"
  | "BTC_HTLC_AMOUNT_MISMATCH"
  | "BTC_OUTPUT_NOT_USERS"
  | "BTC_OUTPUT_DUST"
  | "BTC_FEE_INVALID"
  | "BTC_FEE_TOO_LOW"
  | "BTC_FEE_TOO_HIGH"
  | "BTC_SIGNER_KEY_MISMATCH"
  | "BTC_SIGNER_UNSUPPORTED"
  | "BTC_SIGNATURE_INVALID"
  | "BTC_TX_MODIFIED"
  | "BTC_REFUND_INVALID";

/**
 * Build the package's `BaseError` for `code` (callers switch on `error.code`; see the README's table).
 *
 * @example
 * ```ts
 * import { createBitcoinError } from "@swapintent/bitcoin";
 *
 * throw createBitcoinError("BTC_FEE_TOO_HIGH", "The fee is above the cap.", { feeLots: 60_000n });
 * ```
 */
export function createBitcoinError(
  code: BitcoinErrorCode,
  shortMessage: string,
  details: Record<string, unknown> = {},
  cause?: unknown,
): BaseError<BitcoinErrorCode> {
  return new BaseError(code, shortMessage, { details, cause });
}
