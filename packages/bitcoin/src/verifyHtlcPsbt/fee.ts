// Internal to `verifyHtlcPsbt`: the fee, between the minimum relay rate and the policy's caps, over a size
// estimated from script types only.
import type { Psbt, Transaction } from "bitcoinjs-lib";
import { createBitcoinError } from "../errors.js";
import { type SegwitKind, witnessWeightOf } from "../internal/scriptTypes.js";
import type { HtlcPolicy } from "../types.js";
import { MAX_STANDARD_TX_WEIGHT, SEGWIT_MARKER_AND_FLAG_WU } from "./common.js";

/** An input without its witness: outpoint (36 bytes), empty scriptSig (1) and sequence (4), times 4. */
const INPUT_WITHOUT_WITNESS_WU = 164n;

/**
 * The fee: not negative, at least the minimum relay rate, at most the policy's caps. The size comes from the
 * unsigned transaction and each input's script type (`witnessWeightOf`), never from witness or script data the
 * service put in the PSBT: a fake 12 kB witness on its own input would otherwise make any fee look cheap. The
 * per-vbyte cap also holds for the user's share (the fee less what unlisted inputs bring) over the user's part of
 * the size: the service's own coins (its dust) would otherwise raise the cap by their size while adding nothing.
 * The share cap (`maxFeeBps` of the quoted amount) bounds what the user pays: the fee less what the service's own
 * coins bring (their amounts are committed, `assertAmountsCommitted`), which is what leaves the user's change.
 */
export function checkFee(args: {
  psbt: Psbt;
  tx: Transaction;
  kinds: SegwitKind[];
  listed: number[];
  inputTotal: bigint;
  outputTotal: bigint;
  policy: HtlcPolicy;
  amountLots: bigint;
}): { feeLots: bigint; estimatedVsize: bigint } {
  const { psbt, tx, kinds, inputTotal, outputTotal, policy } = args;
  const feeLots = inputTotal - outputTotal;
  if (feeLots < 0n) {
    throw createBitcoinError("BTC_FEE_INVALID", "The outputs spend more than the inputs.", {
      inputTotal,
      outputTotal,
    });
  }
  let weight = BigInt(tx.byteLength(false)) * 4n + SEGWIT_MARKER_AND_FLAG_WU;
  let serviceWeight = 0n;
  let serviceLots = 0n;
  const listed = new Set(args.listed);
  kinds.forEach((kind, index) => {
    const input = psbt.data.inputs[index]!;
    const witness = witnessWeightOf(kind, input.sighashType);
    weight += witness;
    if (listed.has(index)) return;
    serviceWeight += INPUT_WITHOUT_WITNESS_WU + witness;
    serviceLots += input.witnessUtxo!.value;
  });
  if (weight > MAX_STANDARD_TX_WEIGHT) {
    throw createBitcoinError(
      "BTC_TX_NOT_STANDARD",
      "The deposit is heavier than 400,000 weight units: nodes would not relay it.",
      { estimatedWeight: weight },
    );
  }
  const estimatedVsize = (weight + 3n) / 4n;
  const details = {
    feeLots,
    estimatedVsize,
    minFeeRateSatPerVbyte: policy.minFeeRateSatPerVbyte,
    maxFeeLots: policy.maxFeeLots,
    maxFeeRateSatPerVbyte: policy.maxFeeRateSatPerVbyte,
    maxFeeBps: policy.maxFeeBps,
  };
  if (feeLots < policy.minFeeRateSatPerVbyte * estimatedVsize) {
    throw createBitcoinError(
      "BTC_FEE_TOO_LOW",
      "The fee is below the minimum relay rate: nodes would not relay the deposit.",
      details,
    );
  }
  if (
    feeLots > policy.maxFeeLots ||
    feeLots > policy.maxFeeRateSatPerVbyte * estimatedVsize ||
    feeLots - serviceLots > policy.maxFeeRateSatPerVbyte * ((weight - serviceWeight + 3n) / 4n) ||
    (feeLots - serviceLots) * 10_000n > args.amountLots * BigInt(policy.maxFeeBps)
  ) {
    throw createBitcoinError("BTC_FEE_TOO_HIGH", "The fee is above the cap.", details);
  }
  return { feeLots, estimatedVsize };
}
