import { BaseError, isSwapIntentError } from "@swapintent/client";

/** Every failure code of `@swapintent/bitcoin` (see the README's table). */
export type BitcoinErrorCode =
  /** The intent's approval mechanism is not `htlc`. */
  | "BTC_MECHANISM_MISMATCH"
  /** `params_to_sign.psbt` (or what a wallet returned, or `depositPsbt`) is not a base64 PSBT. */
  | "BTC_PSBT_INVALID"
  /** The PSBT carries a global, output or unlisted-input field a deposit does not have. */
  | "BTC_PSBT_FIELD_NOT_ALLOWED"
  /** `quote.sourceAmountLots` is not a positive bigint. */
  | "BTC_QUOTE_INVALID"
  /** A policy field has the wrong type (counts are integers, fee caps bigint lots). */
  | "BTC_POLICY_INVALID"
  /** The user's public key is not a 33-byte compressed secp256k1 point. */
  | "BTC_PUBLIC_KEY_INVALID"
  /** `params_to_sign.inputs` is not a non-empty list of distinct, existing input indexes. */
  | "BTC_INPUT_INDEX_INVALID"
  /** An input has no `witnessUtxo` (its value is unknown). */
  | "BTC_UTXO_MISSING"
  /** An input's `nonWitnessUtxo` does not match its outpoint or its `witnessUtxo`. */
  | "BTC_UTXO_MISMATCH"
  /** An input does not spend a native segwit output, or has a scriptSig: the txid could change. */
  | "BTC_INPUT_NOT_SEGWIT"
  /** No listed Taproot input commits to every amount, and an input lacks its previous transaction. */
  | "BTC_NON_WITNESS_UTXO_REQUIRED"
  /** A listed input does not spend the user's P2TR (BIP-86) or P2WPKH output. */
  | "BTC_INPUT_NOT_USERS"
  /** A listed input carries a field outside the allow-list of a plain key spend. */
  | "BTC_INPUT_FIELD_NOT_ALLOWED"
  /** An unlisted input spends the user's scripts or names the user's key. */
  | "BTC_INPUT_NOT_LISTED_SIGNED"
  /** A listed input (or a wallet's signature) uses a sighash other than DEFAULT/ALL. */
  | "BTC_SIGHASH_NOT_ALLOWED"
  /** The deposit is not valid now: an enforced `nLockTime` or a BIP-68 relative lock delays it. */
  | "BTC_TX_TIMELOCKED"
  /** Nodes would not relay the deposit (version not 1 or 2, or heavier than 400,000 WU). */
  | "BTC_TX_NOT_STANDARD"
  /** Output 0 carries no BIP-371 `tapInternalKey` and `tapTree`. */
  | "BTC_HTLC_MISSING"
  /** The HTLC's internal key is not the unspendable NUMS key. */
  | "BTC_HTLC_INTERNAL_KEY_MISMATCH"
  /** The HTLC's tree, leaves or output script are not the documented templates. */
  | "BTC_HTLC_SCRIPT_MISMATCH"
  /** The claim leaf is locked to a hash other than the intent's `secret_hash`. */
  | "BTC_HTLC_SECRET_HASH_MISMATCH"
  /** The refund leaf does not pay the user's key. */
  | "BTC_HTLC_REFUND_KEY_MISMATCH"
  /** The claim leaf pays a key other than `policy.resolverPublicKey`. */
  | "BTC_HTLC_CLAIM_KEY_MISMATCH"
  /** The refund delay is outside the policy's bounds or above 0xffff. */
  | "BTC_HTLC_TIMELOCK_OUT_OF_BOUNDS"
  /** The HTLC does not lock exactly `quote.sourceAmountLots`. */
  | "BTC_HTLC_AMOUNT_MISMATCH"
  /** An output other than the HTLC does not pay the user. */
  | "BTC_OUTPUT_NOT_USERS"
  /** An output is below its type's dust limit. */
  | "BTC_OUTPUT_DUST"
  /** The deposit has more than one change output. */
  | "BTC_CHANGE_SPLIT"
  /** The change goes to a script type other than `policy.changeScriptType`. */
  | "BTC_CHANGE_SCRIPT_MISMATCH"
  /** The outputs spend more than the inputs. */
  | "BTC_FEE_INVALID"
  /** The fee is below the minimum relay rate. */
  | "BTC_FEE_TOO_LOW"
  /** The fee is above `policy.maxFeeLots` or the per-vbyte cap. */
  | "BTC_FEE_TOO_HIGH"
  /** The signer's public key is not the user's key (or, for a refund, it cannot sign Schnorr). */
  | "BTC_SIGNER_KEY_MISMATCH"
  /** The signer cannot sign some listed input (no Schnorr for a P2TR input). */
  | "BTC_SIGNER_UNSUPPORTED"
  /** A signature does not verify, is missing, or is not in a shape the chain accepts. */
  | "BTC_SIGNATURE_INVALID"
  /** Signing (or the wallet) changed the unsigned transaction. */
  | "BTC_TX_MODIFIED"
  /** The refund fee or destination is invalid (below 1 sat/vB, or leaves less than 330 sat). */
  | "BTC_REFUND_INVALID";

/** Every code at runtime, for `isBitcoinError`; the compiler keeps it equal to the union. */
const bitcoinErrorCodes: Readonly<Record<BitcoinErrorCode, true>> = {
  BTC_MECHANISM_MISMATCH: true,
  BTC_PSBT_INVALID: true,
  BTC_PSBT_FIELD_NOT_ALLOWED: true,
  BTC_QUOTE_INVALID: true,
  BTC_POLICY_INVALID: true,
  BTC_PUBLIC_KEY_INVALID: true,
  BTC_INPUT_INDEX_INVALID: true,
  BTC_UTXO_MISSING: true,
  BTC_UTXO_MISMATCH: true,
  BTC_INPUT_NOT_SEGWIT: true,
  BTC_NON_WITNESS_UTXO_REQUIRED: true,
  BTC_INPUT_NOT_USERS: true,
  BTC_INPUT_FIELD_NOT_ALLOWED: true,
  BTC_INPUT_NOT_LISTED_SIGNED: true,
  BTC_SIGHASH_NOT_ALLOWED: true,
  BTC_TX_TIMELOCKED: true,
  BTC_TX_NOT_STANDARD: true,
  BTC_HTLC_MISSING: true,
  BTC_HTLC_INTERNAL_KEY_MISMATCH: true,
  BTC_HTLC_SCRIPT_MISMATCH: true,
  BTC_HTLC_SECRET_HASH_MISMATCH: true,
  BTC_HTLC_REFUND_KEY_MISMATCH: true,
  BTC_HTLC_CLAIM_KEY_MISMATCH: true,
  BTC_HTLC_TIMELOCK_OUT_OF_BOUNDS: true,
  BTC_HTLC_AMOUNT_MISMATCH: true,
  BTC_OUTPUT_NOT_USERS: true,
  BTC_OUTPUT_DUST: true,
  BTC_CHANGE_SPLIT: true,
  BTC_CHANGE_SCRIPT_MISMATCH: true,
  BTC_FEE_INVALID: true,
  BTC_FEE_TOO_LOW: true,
  BTC_FEE_TOO_HIGH: true,
  BTC_SIGNER_KEY_MISMATCH: true,
  BTC_SIGNER_UNSUPPORTED: true,
  BTC_SIGNATURE_INVALID: true,
  BTC_TX_MODIFIED: true,
  BTC_REFUND_INVALID: true,
};

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
  if (!isSwapIntentError(error) || !Object.hasOwn(bitcoinErrorCodes, error.code)) return false;
  return code === undefined || error.code === code;
}

/** Every code of the union (for the documentation test). */
export function listBitcoinErrorCodes(): BitcoinErrorCode[] {
  return Object.keys(bitcoinErrorCodes) as BitcoinErrorCode[];
}
