import { Psbt } from "bitcoinjs-lib";
import { LegRejection } from "../types.js";
import { checkSpend } from "./checkSpend.js";
import {
  byValueDescending,
  DUST_LOTS,
  fromHex,
  getFee,
  getOutputWeight,
  P2WPKH_INPUT_WU,
  P2WPKH_OUTPUT_WU,
  TX_OVERHEAD_WU,
  toHex,
} from "./fees.js";
import type { Utxo } from "./ledger.js";
import type { StartedBitcoinLeg } from "./types.js";

/**
 * Pay `outputs` from the resolver's P2WPKH UTXOs (largest first), change to the resolver; the transaction passes
 * {@link checkSpend} before the ledger applies it. Idempotent per `purpose`: called again, it answers with the
 * transaction it made the first time. Too little inventory: `INSUFFICIENT_INVENTORY`.
 */
export function payFromResolver({
  leg,
  outputs,
  purpose,
}: {
  leg: StartedBitcoinLeg;
  outputs: { script: Uint8Array; value: bigint }[];
  purpose: string;
}): string {
  const { ledger, resolver } = leg;
  const done = ledger.purpose(purpose);
  if (done) return done;
  const target = outputs.reduce((s, o) => s + o.value, 0n);
  const baseWeight =
    TX_OVERHEAD_WU + outputs.reduce((w, o) => w + getOutputWeight(o.script), 0n) + P2WPKH_OUTPUT_WU;
  const chosen: Utxo[] = [];
  let total = 0n;
  let fee = getFee(baseWeight);
  for (const u of ledger.utxosOf(toHex(resolver.script)).sort(byValueDescending)) {
    if (total >= target + fee) break;
    chosen.push(u);
    total += u.value;
    fee = getFee(baseWeight + P2WPKH_INPUT_WU * BigInt(chosen.length));
  }
  if (total < target + fee)
    throw new LegRejection("INSUFFICIENT_INVENTORY", "the resolver does not hold enough BTC");
  const psbt = new Psbt({ network: undefined });
  psbt.setVersion(2);
  for (const u of chosen)
    psbt.addInput({
      hash: u.txid,
      index: u.vout,
      witnessUtxo: { script: fromHex(u.script), value: u.value },
    });
  for (const o of outputs) psbt.addOutput(o);
  const change = total - target - fee;
  if (change >= DUST_LOTS) psbt.addOutput({ script: resolver.script, value: change });
  for (let i = 0; i < chosen.length; i++) psbt.signInput(i, resolver.key);
  psbt.finalizeAllInputs();
  const tx = psbt.extractTransaction();
  checkSpend({ leg, tx });
  return ledger.apply(tx, purpose);
}
