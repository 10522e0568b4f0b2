import type { Intent, Quote } from "@swapintent/client";
import { type Psbt, Transaction } from "bitcoinjs-lib";
import { type BitcoinError, createBitcoinError } from "../errors.js";
import { getUserScripts } from "../getUserScripts.js";
import { useEcc } from "../internal/useEcc.js";
import type { BitcoinEcc, HtlcOutput, HtlcPolicyParameters } from "../types.js";
import type { ListedInput } from "./common.js";
import { checkFee } from "./fee.js";
import {
  assertAmountsCommitted,
  assertPsbtFields,
  assertUnlistedInputs,
  checkListedInput,
  readInputs,
} from "./inputs.js";
import { assertNotTimelocked, assertStandardVersion, assertWeightFloor } from "./locks.js";
import { checkOutputs } from "./outputs.js";
import {
  assertListedIndexes,
  parsePsbt,
  readIntent,
  readNow,
  readQuoteAmount,
  readVerifyParameters,
} from "./parameters.js";
import { resolvePolicy } from "./policy.js";
import { readHtlcOutput } from "./taproot.js";

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

/**
 * Check a Bitcoin deposit PSBT (`params_to_sign` of an `htlc` intent) against the intent and quote the user
 * accepted, before anything is signed. Throws a `SwapIntentError` whose `code` names the first check that failed
 * (README, "What is verified"): the intent's deadline is still ahead; the listed inputs are the user's (P2TR BIP-86 key path or P2WPKH of
 * `userPublicKey`) with only the PSBT fields a key spend needs and SIGHASH_DEFAULT/ALL; every input spends a
 * native segwit output (so the txid is final before signing); no unlisted input asks for the user's key;
 * output 0 is the Taproot HTLC (NUMS internal key, claim leaf locked to the intent's `secretHash`, refund leaf to
 * the user's key after a CSV delay within the policy) paying exactly `quote.sourceAmountLots`; every other
 * output pays the user and is above the dust limit; the fee is between the minimum relay rate and the policy's
 * absolute and per-vbyte caps, with the size estimated from script types.
 *
 * @example
 * ```ts
 * import * as ecc from "tiny-secp256k1";
 * import { verifyHtlcPsbt } from "@swapintent/bitcoin";
 *
 * const verified = verifyHtlcPsbt({ ecc, intent, quote, userPublicKey: "02…" });
 * console.log(verified.htlc.valueLots, verified.feeLots, verified.txid);
 * ```
 */
export function verifyHtlcPsbt(parameters: VerifyHtlcPsbtParameters): VerifyHtlcPsbtReturnType {
  const args = readVerifyParameters(parameters);
  const { ecc } = args;
  const policy = resolvePolicy(args.policy);
  const nowMs = readNow(args.nowMs);
  const { psbtBase64, listed, secretHashHex } = readIntent({ intent: args.intent, nowMs, policy });
  const amountLots = readQuoteAmount(args.quote);
  useEcc(ecc);
  const user = getUserScripts({ ecc, publicKey: args.userPublicKey as Uint8Array });
  const psbt = parsePsbt(psbtBase64);
  const unsignedTx = psbt.data.globalMap.unsignedTx.toBuffer();
  // Read inputs and outputs from the unsigned transaction (bitcoinjs' txInputs/txOutputs getters also derive
  // addresses, which costs about a millisecond).
  const tx = Transaction.fromBuffer(unsignedTx);
  assertWeightFloor(tx);
  assertListedIndexes(listed, tx.ins.length);

  // The deposit must be valid now: a locktime or relative lock would let the service hold a signed deposit that
  // only becomes valid later, after the quote and the intent's deadline.
  assertNotTimelocked({ tx, policy, nowMs });
  assertStandardVersion(tx);
  assertPsbtFields({ psbt, user });
  const { inputTotal, kinds } = readInputs({ psbt, tx });
  const inputs = listed.map((index) => checkListedInput({ psbt, index, user }));
  assertUnlistedInputs({ psbt, listed, user });
  assertAmountsCommitted({ psbt, inputs });

  const htlc = readHtlcOutput({ ecc, psbt, output: tx.outs[0], user, policy, secretHashHex });
  if (htlc.valueLots !== amountLots) {
    throw createBitcoinError(
      "BTC_HTLC_AMOUNT_MISMATCH",
      "The HTLC does not lock exactly the quoted amount.",
      {
        expected: amountLots,
        actual: htlc.valueLots,
      },
    );
  }
  const outputTotal = checkOutputs({ tx, user, policy, inputs });
  const { feeLots, estimatedVsize } = checkFee({
    psbt,
    tx,
    kinds,
    listed,
    inputTotal,
    outputTotal,
    policy,
    amountLots,
  });
  return {
    psbt,
    unsignedTx,
    txid: tx.getId(),
    inputs,
    htlc,
    feeLots,
    estimatedVsize,
    userPublicKey: user.publicKey,
  };
}
