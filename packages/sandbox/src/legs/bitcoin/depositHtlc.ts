import { Transaction } from "bitcoinjs-lib";
import { toLegDataJson } from "../readLegData.js";
import type { Json } from "../types.js";
import { LegRejection } from "../types.js";
import { checkSpend } from "./checkSpend.js";
import { readHtlcLegData } from "./readHtlcLegData.js";
import type { HtlcStepParameters } from "./types.js";

/**
 * `ChainLeg.deposit` of the Bitcoin leg: the ledger applies the verified, user-signed deposit. Called again (a retry
 * after a crash), the ledger already holds it and the same txid comes back.
 */
export function depositHtlc({ leg, intent, legData }: HtlcStepParameters): { txHash: string; legData: Json } {
  const data = readHtlcLegData(legData);
  if (!data.signedTx) throw new LegRejection("APPROVAL_MISSING", "the deposit has not been approved");
  const tx = Transaction.fromHex(data.signedTx);
  const txid = tx.getId();
  if (!leg.ledger.hasTx(txid)) {
    checkSpend({ leg, tx });
    leg.ledger.apply(tx, `deposit:${intent.intentId}`);
  }
  return { txHash: txid, legData: toLegDataJson({ ...data, depositTxid: txid }) };
}
