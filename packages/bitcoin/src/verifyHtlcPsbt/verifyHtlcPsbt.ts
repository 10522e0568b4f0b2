import { Transaction } from "bitcoinjs-lib";
import { createBitcoinError } from "../errors.js";
import { getUserScripts } from "../getUserScripts.js";
import { useEcc } from "../internal/useEcc.js";
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
import type { VerifyHtlcPsbtParameters, VerifyHtlcPsbtReturnType } from "./types.js";

export type { VerifyHtlcPsbtErrorType, VerifyHtlcPsbtParameters, VerifyHtlcPsbtReturnType } from "./types.js";

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
