import { type CodedError, SwapIntentError } from "@swapintent/client";
import { hasErrorCode } from "@swapintent/client/internal";

/** Why a signature was refused (`BTC_SIGNATURE_INVALID`'s `reason`). */
export type SignatureProblem =
  /** The signer (or wallet) did not sign the input. */
  | "missing"
  /** The signer threw while signing the input. */
  | "signerFailed"
  /** A Taproot signature is neither 64 nor 65 bytes. */
  | "length"
  /** An ECDSA signature is not strict DER (BIP-66). */
  | "notDer"
  /** The signature does not verify against the input's sighash and the user's key (or is high-S). */
  | "doesNotVerify";

/**
 * Every failure code of `@swapintent/bitcoin` (see the README's table) and the facts its `details` carry. Details
 * never hold a key, a seed or a preimage; a string the service chose appears escaped (no control, bidi or
 * zero-width character). Hex values are lowercase without `0x` unless said otherwise.
 */
export interface BitcoinErrorDetails {
  /** The intent's approval mechanism is not `htlc`. `approvalMechanism`: the intent's value, escaped. */
  BTC_MECHANISM_MISMATCH: { approvalMechanism: string };
  /**
   * The intent's `deadlineSecs` is not after the caller's clock (`nowMs`, unix milliseconds): the deposit would
   * stay valid on chain for an intent the service no longer has to fill. `deadlineSecs`: the intent's value (`null`
   * when it is not a non-negative integer).
   */
  BTC_DEADLINE_PASSED: { deadlineSecs: number | null; nowMs: number };
  /**
   * The intent's `deadlineSecs` lies more than `maxDeadlineSecs` (policy, default one day) after the caller's clock
   * (`nowMs`): the service could hold the signed deposit that long and broadcast it when it chooses.
   */
  BTC_DEADLINE_TOO_FAR: { deadlineSecs: number; nowMs: number; maxDeadlineSecs: number };
  /**
   * A PSBT does not parse. `source`: `params_to_sign.psbt` (the intent's, or not a string), `wallet` (what a
   * wallet returned) or `depositPsbt` (`signHtlcRefund`'s input).
   */
  BTC_PSBT_INVALID: { source: "params_to_sign.psbt" | "wallet" | "depositPsbt" };
  /**
   * The PSBT carries a global, output or unlisted-input field a deposit does not have. `where`: `global`,
   * `output N` or `input N`; `fields`: the bitcoinjs names of the fields refused.
   */
  BTC_PSBT_FIELD_NOT_ALLOWED: { where: string; fields: string[] };
  /**
   * `quote.sourceAmountLots` is not a positive bigint of at most 21,000,000 BTC. `sourceAmountLots`: the bigint
   * given, in decimal, or only the type of anything else, in parentheses (`(string)`: it may be a seed or key).
   */
  BTC_QUOTE_INVALID: { sourceAmountLots: string };
  /**
   * A policy field has the wrong type (counts are integers, fee caps bigint lots), the policy has a field it does
   * not know (a misspelled cap), the `nowMs` parameter is not a non-negative integer, or `signal` is not an
   * `AbortSignal`, or (a wallet adapter, at creation) an option is unreadable or invalid. `policy`: the fields
   * given, or the unknown ones (escaped), or `["nowMs"]`, or `["signal"]`, or the adapter option's name.
   */
  BTC_POLICY_INVALID: { policy: string[] };
  /**
   * A parameter could not be read (a getter threw, a revoked proxy), or the `ecc` backend is missing, lacks one of
   * its functions, or one of them threw. `parameter`: its path (`intent.paramsToSign.psbt`, `policy.maxFeeLots`,
   * `ecc.isPoint`); the error's `cause` is what was thrown.
   */
  BTC_PARAMETER_INVALID: { parameter: string };
  /**
   * The user's public key is not a 33-byte compressed secp256k1 point. `length`: its length in bytes (-1 when the
   * hex does not decode).
   */
  BTC_PUBLIC_KEY_INVALID: { length: number };
  /**
   * `params_to_sign.inputs` is not a non-empty list of distinct, existing input indexes. `inputs`: the list given,
   * escaped; `inputCount`: the inputs of the transaction.
   */
  BTC_INPUT_INDEX_INVALID: { inputs: string; inputCount: number };
  /** Input `input` has no `witnessUtxo` (its value is unknown). */
  BTC_UTXO_MISSING: { input: number };
  /** Input `input`'s `nonWitnessUtxo` does not parse, or does not match its outpoint or its `witnessUtxo`. */
  BTC_UTXO_MISMATCH: { input: number };
  /**
   * Input `input` does not spend a native segwit output, or has a scriptSig: the txid could change. `script`: the
   * prevout script, hex (empty when the input has no `witnessUtxo`).
   */
  BTC_INPUT_NOT_SEGWIT: { input: number; script: string };
  /** No listed Taproot input commits to every amount, and input `input` lacks its previous transaction. */
  BTC_NON_WITNESS_UTXO_REQUIRED: { input: number };
  /**
   * Listed input `input` does not spend the user's P2TR (BIP-86) or P2WPKH output. `script`: its prevout script,
   * hex; `reason`: `script` (another output) or `tapInternalKey` (a P2TR input that is not a BIP-86 key spend).
   */
  BTC_INPUT_NOT_USERS: { input: number; script: string; reason: "script" | "tapInternalKey" };
  /** Listed input `input` carries `fields` outside the allow-list of a plain key spend. */
  BTC_INPUT_FIELD_NOT_ALLOWED: { input: number; fields: string[] };
  /** Unlisted input `input` spends the user's scripts or names the user's key. */
  BTC_INPUT_NOT_LISTED_SIGNED: { input: number };
  /**
   * Listed input `input` (or a wallet's signature on it) uses a sighash other than DEFAULT/ALL. `sighashType`: the
   * type asked for, or the signature's sighash byte (`null` for a 64-byte Taproot signature, meaning DEFAULT);
   * `expected`: the types accepted there.
   */
  BTC_SIGHASH_NOT_ALLOWED: { input: number; sighashType: number | null; expected: number[] };
  /**
   * The deposit is not valid now: its enforced `nLockTime` (`locktime`, above `maxLockTimeHeight` or a recent
   * time), or input `input`'s `sequence` sets a BIP-68 relative lock.
   */
  BTC_TX_TIMELOCKED:
    | { locktime: number; maxLockTimeHeight: number | undefined }
    | { input: number; sequence: number };
  /** Nodes would not relay the deposit: its `version` is not 1 or 2, or its `estimatedWeight` is above 400,000 WU. */
  BTC_TX_NOT_STANDARD: { version: number } | { estimatedWeight: bigint };
  /** Output `output` (0) carries no BIP-371 `tapInternalKey` and `tapTree`. */
  BTC_HTLC_MISSING: { output: number };
  /** The HTLC's internal key (`tapInternalKey`, hex) is not the unspendable NUMS key. */
  BTC_HTLC_INTERNAL_KEY_MISMATCH: { tapInternalKey: string };
  /**
   * The HTLC is not the documented template. `part`: `leaves` (not the claim and refund scripts), `tree` (not two
   * leaves at depth 1; `leaves` counts them) or `outputScript` (output 0's `script`, hex, is not the tree's key).
   */
  BTC_HTLC_SCRIPT_MISMATCH:
    | { part: "leaves" }
    | { part: "tree"; leaves: number }
    | { part: "outputScript"; script: string };
  /**
   * The claim leaf is locked to a hash other than the intent's. `expected`: the intent's `secret_hash`, escaped;
   * `actual`: the leaf's hash, `0x` hex (`null` when the intent's is not a string).
   */
  BTC_HTLC_SECRET_HASH_MISMATCH: { expected: string; actual: string | null };
  /** The refund leaf pays x-only key `actual` (hex), not the user's `expected`. */
  BTC_HTLC_REFUND_KEY_MISMATCH: { expected: string; actual: string };
  /** The claim leaf pays x-only key `actual` (hex), not `expected` (`policy.resolverPublicKey`). */
  BTC_HTLC_CLAIM_KEY_MISMATCH: { expected: string; actual: string };
  /** The refund delay `csvBlocks` is outside `minCsvBlocks..maxCsvBlocks` (never above 0xffff). */
  BTC_HTLC_TIMELOCK_OUT_OF_BOUNDS: { csvBlocks: number; minCsvBlocks: number; maxCsvBlocks: number };
  /** The HTLC locks `actual` lots, not the quote's `expected`. */
  BTC_HTLC_AMOUNT_MISMATCH: { expected: bigint; actual: bigint };
  /** Output `output` (`script`, hex; `valueLots`) is not the HTLC and does not pay the user. */
  BTC_OUTPUT_NOT_USERS: { output: number; script: string; valueLots: bigint };
  /** Output `output` holds `valueLots`, below its type's `dustLimitLots`. */
  BTC_OUTPUT_DUST: { output: number; valueLots: bigint; dustLimitLots: bigint };
  /** The deposit has `changeOutputs` change outputs (more than one). */
  BTC_CHANGE_SPLIT: { changeOutputs: number };
  /**
   * Change output `output` is the user's `kind` script, not `changeScriptType`: the policy's, or when unset the type
   * every listed input spends.
   */
  BTC_CHANGE_SCRIPT_MISMATCH: {
    output: number;
    kind: "p2tr" | "p2wpkh";
    changeScriptType: "p2tr" | "p2wpkh" | undefined;
  };
  /**
   * An amount is below zero or above 21,000,000 BTC (consensus's MoneyRange), so the chain would refuse the
   * deposit (bitcoinjs reads amounts as signed: eight 0xff bytes are -1 sat to it, 2^64 - 1 to consensus). `where`:
   * `input N` (its stated value), `inputs` (their sum), `output N` or `outputs` (their sum); `valueLots`: that
   * amount; `maxLots`: 2,100,000,000,000,000.
   */
  BTC_AMOUNT_OUT_OF_RANGE: { where: string; valueLots: bigint; maxLots: bigint };
  /** The outputs (`outputTotal` lots) spend more than the inputs (`inputTotal`). */
  BTC_FEE_INVALID: { inputTotal: bigint; outputTotal: bigint };
  /** The fee `feeLots` is below `minFeeRateSatPerVbyte` times `estimatedVsize`. */
  BTC_FEE_TOO_LOW: FeeDetails;
  /**
   * The fee `feeLots` is above `maxFeeLots`, above `maxFeeRateSatPerVbyte` times `estimatedVsize`, or above
   * `maxFeeBps` basis points of the quoted amount.
   */
  BTC_FEE_TOO_HIGH: FeeDetails;
  /**
   * The signer's public key (`actual`, hex) is not the user's key (`expected`), or, for a refund, the signer
   * cannot sign Schnorr (`canSignSchnorr` false). A `publicKey` not shaped as a compressed key (33 bytes, 02/03) is
   * never printed (it may be the private key in the wrong field): `actual` is then `(not a public key)`.
   */
  BTC_SIGNER_KEY_MISMATCH: { expected: string; actual: string; canSignSchnorr?: boolean };
  /** The signer cannot sign listed P2TR input `input` (no Schnorr signing). */
  BTC_SIGNER_UNSUPPORTED: { input: number };
  /** The signature on input `input` is refused for `reason`; `length` is its length when that is the reason. */
  BTC_SIGNATURE_INVALID: { input: number; reason: SignatureProblem; length?: number };
  /**
   * Signing (or the wallet) changed the unsigned transaction. `where`: `global`; `fields`: the parts that differ
   * (`version`, `locktime`, `inputs`, `sequence`, `outputs`, or `unsignedTx` for any other byte).
   */
  BTC_TX_MODIFIED: { where: string; fields: string[] };
  /**
   * The wallet changed, added or removed a PSBT field other than the listed inputs' signatures. `where`:
   * `global`, `input N` or `output N`; `fields`: the bitcoinjs names of the fields that differ.
   */
  BTC_PSBT_FIELD_MODIFIED: { where: string; fields: string[] };
  /**
   * The wallet returned a signature it was not asked for: on an unlisted input, by a key other than the user's, a
   * second one, a script-path or scriptSig signature, or a final witness that is not exactly the user's signature
   * (and key). `input`: the input; `field`: the PSBT field that holds it.
   */
  BTC_SIGNATURE_UNEXPECTED: { input: number; field: string };
  /**
   * The wallet refused to sign (the user cancelled, or the wallet failed) or answered in a shape its documented
   * API does not have. `wallet`: the adapter; `code` and `message`: the wallet's own, escaped (`null` when absent).
   */
  BTC_WALLET_REJECTED: {
    wallet: "unisat" | "sats-connect" | "leather";
    code: string | number | null;
    message: string | null;
  };
  /**
   * The wallet answered with a txid although the adapter asked it not to broadcast (`broadcast: false`): it may
   * have published the transaction on its own. `wallet`: the adapter; `txid`: the wallet's value, escaped (or its
   * type in parentheses when it is no string). The approval is not returned.
   */
  BTC_WALLET_BROADCAST: { wallet: "unisat" | "sats-connect" | "leather"; txid: string };
  /**
   * The signer or wallet threw instead of answering. `step`: `signer` (reading it: its `publicKey` or a method, a
   * getter that throws, a revoked proxy), `tweak` (a key signer's `tweak`, or reading the tweaked key) or
   * `signPsbt` (a custom wallet's `signPsbt` threw or rejected). The error's `cause` is what it threw: whatever
   * that was, even an error shaped like this package's own, it is this code (an adapter's `BTC_WALLET_REJECTED`
   * stays that).
   */
  BTC_SIGNING_FAILED: { step: "signer" | "tweak" | "signPsbt" };
  /**
   * `signHtlcPsbt`'s or `signHtlcRefund`'s `signal` aborted: `stage` `beforeSigning` (aborted before the signer or
   * wallet was asked) or `whileSigning` (while waiting for it, or before its answer became an approval or refund).
   * No approval or refund is returned after.
   * The error's `cause` is the signal's `reason` (or what reading the signal threw).
   */
  BTC_SIGNING_ABORTED: { stage: "beforeSigning" | "whileSigning" };
  /**
   * The refund is invalid: `feeLots` below 1 sat/vB of `vsize`, or leaving less of `htlcLots` than the destination
   * type's dust threshold `dustLots` (Bitcoin Core's: 330 sat P2TR, 294 P2WPKH, 546 P2PKH); or the parameters have
   * the wrong types (`feeLots` and `destinationScript` give the types passed); or `destinationScript` (hex) is one
   * the user cannot spend: OP_RETURN, or the HTLC's own script.
   */
  BTC_REFUND_INVALID:
    | { feeLots: bigint; htlcLots: bigint; vsize: bigint; dustLots: bigint }
    | { feeLots: string; destinationScript: string }
    | { destinationScript: string };
}

/** The facts of a fee check (`BTC_FEE_TOO_LOW`, `BTC_FEE_TOO_HIGH`): the fee, the estimate and the policy's caps. */
export type FeeDetails = {
  feeLots: bigint;
  estimatedVsize: bigint;
  minFeeRateSatPerVbyte: bigint;
  maxFeeLots: bigint;
  maxFeeRateSatPerVbyte: bigint;
  maxFeeBps: number;
};

/** Every failure code of `@swapintent/bitcoin` (see the README's table and `BitcoinErrorDetails`). */
export type BitcoinErrorCode = keyof BitcoinErrorDetails;

/** Every code at runtime, for `isBitcoinError`; the compiler keeps it equal to the union. */
const bitcoinErrorCodes: Readonly<Record<BitcoinErrorCode, true>> = {
  BTC_MECHANISM_MISMATCH: true,
  BTC_DEADLINE_PASSED: true,
  BTC_DEADLINE_TOO_FAR: true,
  BTC_PSBT_INVALID: true,
  BTC_PSBT_FIELD_NOT_ALLOWED: true,
  BTC_QUOTE_INVALID: true,
  BTC_POLICY_INVALID: true,
  BTC_PARAMETER_INVALID: true,
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
  BTC_AMOUNT_OUT_OF_RANGE: true,
  BTC_FEE_INVALID: true,
  BTC_FEE_TOO_LOW: true,
  BTC_FEE_TOO_HIGH: true,
  BTC_SIGNER_KEY_MISMATCH: true,
  BTC_SIGNER_UNSUPPORTED: true,
  BTC_SIGNATURE_INVALID: true,
  BTC_TX_MODIFIED: true,
  BTC_PSBT_FIELD_MODIFIED: true,
  BTC_SIGNATURE_UNEXPECTED: true,
  BTC_WALLET_REJECTED: true,
  BTC_WALLET_BROADCAST: true,
  BTC_SIGNING_FAILED: true,
  BTC_SIGNING_ABORTED: true,
  BTC_REFUND_INVALID: true,
};

/**
 * The error every function of `@swapintent/bitcoin` throws: a `SwapIntentError` whose `code` is a `BitcoinErrorCode`
 * and whose `details` are that code's (`BitcoinErrorDetails`). A union with one member per code, so narrowing
 * `code` narrows `details`; `BitcoinError<"BTC_FEE_TOO_HIGH">` is that one code's error.
 */
export type BitcoinError<C extends BitcoinErrorCode = BitcoinErrorCode> = CodedError<BitcoinErrorDetails, C>;

/** Every error this copy of the package created: only these pass a signer's or wallet's step as they are. */
const own = new WeakSet<object>();

/**
 * Build the package's error for `code`. Internal: the compiler checks `code` against `BitcoinErrorCode` and
 * `details` against that code's `BitcoinErrorDetails` entry.
 */
export function createBitcoinError<C extends BitcoinErrorCode>(
  code: C,
  shortMessage: string,
  details: BitcoinErrorDetails[C],
  cause?: unknown,
): BitcoinError<C> {
  const error = new SwapIntentError(code, shortMessage, { details, cause });
  own.add(error);
  return error as unknown as BitcoinError<C>;
}

/**
 * What the signer or wallet threw at `step`, as this package's error: `thrown` itself when this copy created it
 * (an adapter's refusal), else `BTC_SIGNING_FAILED` with it as cause (`isBitcoinError` goes by shape, so a wallet
 * could throw any `BTC_*` code; it cannot throw one of these).
 */
export function signingFailed(step: BitcoinErrorDetails["BTC_SIGNING_FAILED"]["step"], thrown: unknown) {
  return own.has(thrown as object)
    ? thrown
    : createBitcoinError("BTC_SIGNING_FAILED", "The signer or wallet failed.", { step }, thrown);
}

/**
 * True when `error` is an error of `@swapintent/bitcoin` (its `code` is one of this package's exact list of
 * codes), and, when `code` is given, that very code. Narrows `error` to `BitcoinError<code>`, so `details` is that
 * code's facts. Works across duplicated copies of the client package, like `isSwapIntentError`.
 *
 * @example
 * ```ts
 * import { isBitcoinError, signHtlcPsbt } from "@swapintent/bitcoin";
 *
 * try {
 *   await signHtlcPsbt({ ecc, intent, quote, userPublicKey, signer });
 * } catch (error) {
 *   if (isBitcoinError(error, "BTC_FEE_TOO_HIGH")) console.log(error.details.feeLots); // bigint
 *   else throw error;
 * }
 * ```
 */
export function isBitcoinError<C extends BitcoinErrorCode = BitcoinErrorCode>(
  error: unknown,
  code?: C,
): error is BitcoinError<C> {
  return hasErrorCode(error, bitcoinErrorCodes, code);
}

/** Every code of the union (for the documentation test). */
export function listBitcoinErrorCodes(): BitcoinErrorCode[] {
  return Object.keys(bitcoinErrorCodes) as BitcoinErrorCode[];
}
