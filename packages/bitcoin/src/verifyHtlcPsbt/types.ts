import type { Intent, Quote } from "@swapintent/client";
import type { Psbt } from "bitcoinjs-lib";
import type { BitcoinError } from "../errors.js";
import type { BitcoinEcc, HtlcOutput, HtlcPolicyParameters } from "../types.js";
import type { ListedInput } from "./common.js";

/** What `verifyHtlcPsbt` returns: the verified deposit. */
export interface VerifyHtlcPsbtReturnType {
  /** A private copy of the parsed PSBT (the caller's data is never changed); `signHtlcPsbt` signs this copy. */
  psbt: Psbt;
  /** The unsigned transaction as the PSBT carries it; signing must leave it byte-identical. */
  unsignedTx: Uint8Array;
  /**
   * The deposit's txid. Every input spends a native segwit output, so signing cannot change it: the refund
   * (`signHtlcRefund`) spends `txid:0`.
   */
  txid: string;
  /** The inputs the user signs, and for each whether it spends the user's P2TR or P2WPKH output. */
  inputs: ListedInput[];
  /** The HTLC output (always output 0). */
  htlc: HtlcOutput;
  /** Sum of the inputs' values minus sum of the outputs' values, in satoshis. */
  feeLots: bigint;
  /**
   * Virtual size of the signed transaction, estimated from the inputs' script types only (witness data the
   * service put in the PSBT is never counted).
   */
  estimatedVsize: bigint;
  /** The user's 33-byte compressed key. */
  userPublicKey: Uint8Array;
}

/** Parameters of `verifyHtlcPsbt`. */
export interface VerifyHtlcPsbtParameters {
  /** The secp256k1 backend: `tiny-secp256k1` or `@bitcoinerlab/secp256k1`. */
  ecc: BitcoinEcc;
  /** The `htlc` intent as the service returned it (checked, not trusted). */
  intent: Intent;
  /** The quote the user accepted: the HTLC must lock exactly `sourceAmountLots`. */
  quote: Pick<Quote, "sourceAmountLots">;
  /** The user's 33-byte compressed key, hex (the intent's `user_source_public_key`). */
  userPublicKey: string | Uint8Array;
  /** Limits; each field left out (or `undefined`) takes its `DEFAULT_HTLC_POLICY` value. */
  policy?: HtlcPolicyParameters | undefined;
  /**
   * The caller's clock, unix milliseconds (default `Date.now()`): the intent's deadline must lie after it, and a
   * time locktime at least two hours before it. Pass the clock your wallet trusts (a test's or sandbox's clock).
   */
  nowMs?: number | undefined;
}

/**
 * What `verifyHtlcPsbt` may throw: a `BitcoinError` whose code names the first check that failed (README table),
 * one of these codes only, so a `switch` over `code` is exhaustive for this call.
 */
export type VerifyHtlcPsbtErrorType = BitcoinError<
  | "BTC_PARAMETER_INVALID"
  | "BTC_POLICY_INVALID"
  | "BTC_MECHANISM_MISMATCH"
  | "BTC_PSBT_INVALID"
  | "BTC_DEADLINE_PASSED"
  | "BTC_DEADLINE_TOO_FAR"
  | "BTC_QUOTE_INVALID"
  | "BTC_PUBLIC_KEY_INVALID"
  | "BTC_TX_NOT_STANDARD"
  | "BTC_INPUT_INDEX_INVALID"
  | "BTC_TX_TIMELOCKED"
  | "BTC_PSBT_FIELD_NOT_ALLOWED"
  | "BTC_UTXO_MISSING"
  | "BTC_UTXO_MISMATCH"
  | "BTC_INPUT_NOT_SEGWIT"
  | "BTC_AMOUNT_OUT_OF_RANGE"
  | "BTC_INPUT_NOT_USERS"
  | "BTC_INPUT_FIELD_NOT_ALLOWED"
  | "BTC_SIGHASH_NOT_ALLOWED"
  | "BTC_INPUT_NOT_LISTED_SIGNED"
  | "BTC_NON_WITNESS_UTXO_REQUIRED"
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
  | "BTC_CHANGE_SPLIT"
  | "BTC_CHANGE_SCRIPT_MISMATCH"
  | "BTC_FEE_INVALID"
  | "BTC_FEE_TOO_LOW"
  | "BTC_FEE_TOO_HIGH"
>;
