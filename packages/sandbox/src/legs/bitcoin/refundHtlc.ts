import { LegRejection } from "../types.js";
import { payFromResolver } from "./payFromResolver.js";
import { readHtlcLegData } from "./readHtlcLegData.js";
import { requireRegtestAddress } from "./requireRegtestAddress.js";
import { scriptOfAddress } from "./scriptOfAddress.js";
import type { HtlcStepParameters } from "./types.js";

/**
 * `ChainLeg.refund` of the Bitcoin leg. The HTLC has only a claim leaf (resolver key + secret) and a refund leaf (user
 * key after the CSV delay); the resolver cannot sign the user's leaf, and `ChainLeg.refund` is not given the secret.
 * So the resolver refunds by paying the user `sourceAmountLots` from its own inventory (a real, interpreter-checked
 * transaction to `refundAddress`), and the HTLC is left as it is: the user may still take it through the refund leaf
 * after the delay (`broadcast`), which in this sandbox costs only the resolver. A user's own refund-leaf spend counts
 * as the refund; a claimed HTLC is `ALREADY_CLAIMED`.
 */
export function refundHtlc({ leg, intent, legData }: HtlcStepParameters): { txHash: string } {
  const { ledger } = leg;
  const done = ledger.purpose(`refund:${intent.intentId}`);
  if (done) return { txHash: done };
  const data = readHtlcLegData(legData);
  if (!data.depositTxid || !ledger.hasTx(data.depositTxid))
    throw new LegRejection("NOT_DEPOSITED", "nothing is locked for this intent");
  const spent = ledger.spentBy({ txid: data.depositTxid, vout: 0 });
  if (spent && spent === ledger.purpose(`claim:${intent.intentId}`))
    throw new LegRejection("ALREADY_CLAIMED", "the HTLC was claimed");
  // The user already took the HTLC back through the refund leaf: that transaction is the refund.
  if (spent) return { txHash: spent };
  const script = scriptOfAddress(intent.refundAddress) ?? requireRegtestAddress(intent.userSourceAddress);
  const txHash = payFromResolver({
    leg,
    outputs: [{ script, value: intent.sourceAmountLots }],
    purpose: `refund:${intent.intentId}`,
  });
  return { txHash };
}
