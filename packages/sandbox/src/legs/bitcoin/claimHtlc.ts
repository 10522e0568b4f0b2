import { crypto, Psbt } from "bitcoinjs-lib";
import { LegRejection } from "../types.js";
import { LEAF_VERSION } from "./buildHtlc.js";
import { checkSpend } from "./checkSpend.js";
import { fromHex, getFee, HTLC_CLAIM_INPUT_WU, P2WPKH_OUTPUT_WU, TX_OVERHEAD_WU, toHex } from "./fees.js";
import { readHtlcLegData } from "./readHtlcLegData.js";
import { serializeWitness } from "./serializeWitness.js";
import type { HtlcStepParameters } from "./types.js";

/**
 * `ChainLeg.claim` of the Bitcoin leg: the resolver spends the HTLC through its claim leaf (its signature and the
 * secret) to its own script. A retry answers with the earlier claim; an HTLC the user took back is `HTLC_SPENT`.
 */
export function claimHtlc({ leg, intent, legData, secret }: HtlcStepParameters & { secret: Uint8Array }): {
  txHash: string;
} {
  const { ledger, resolver } = leg;
  const data = readHtlcLegData(legData);
  if (!data.depositTxid) throw new LegRejection("DEPOSIT_MISSING", "nothing has been deposited");
  const spent = ledger.spentBy({ txid: data.depositTxid, vout: 0 });
  if (spent) {
    if (spent === ledger.purpose(`claim:${intent.intentId}`)) return { txHash: spent };
    throw new LegRejection(
      "HTLC_SPENT",
      "the HTLC was already spent (the user took it back after the delay)",
    );
  }
  if (toHex(crypto.sha256(secret)) !== intent.secretHash.slice(2).toLowerCase())
    throw new LegRejection("SECRET_INVALID", "the secret does not hash to the intent's secret_hash");
  const value = BigInt(data.htlc.value);
  const claimLeaf = fromHex(data.htlc.claimLeaf);
  const controlBlock = fromHex(data.htlc.claimControlBlock);
  const fee = getFee(TX_OVERHEAD_WU + HTLC_CLAIM_INPUT_WU + P2WPKH_OUTPUT_WU);
  const psbt = new Psbt();
  psbt.setVersion(2);
  psbt.addInput({
    hash: data.depositTxid,
    index: 0,
    sequence: 0xfffffffd,
    witnessUtxo: { script: fromHex(data.htlc.script), value },
    tapLeafScript: [{ leafVersion: LEAF_VERSION, script: claimLeaf, controlBlock }],
  });
  psbt.addOutput({ script: resolver.script, value: value - fee });
  psbt.signTaprootInput(0, resolver.key);
  psbt.finalizeTaprootInput(0, undefined, (_i, input) => {
    const sig = input.tapScriptSig?.[0]?.signature;
    if (!sig) throw new Error("the claim was not signed");
    return { finalScriptWitness: serializeWitness([sig, secret, claimLeaf, controlBlock]) };
  });
  const tx = psbt.extractTransaction();
  checkSpend({ leg, tx });
  return { txHash: ledger.apply(tx, `claim:${intent.intentId}`) };
}
