import type { StatusRow } from "../db/intentRow.js";
import type { Json } from "../legs/types.js";

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** The swap status record of an intent (spec 2.3, 2.4). */
export function toStatusRecord(row: StatusRow): Record<string, Json> {
  return {
    intent_id: row.id,
    status: row.status,
    swap_metadata: {
      id: row.swapId,
      proxy_address: row.proxyAddress,
      user_deposit_tx: row.userDepositTx,
      fulfill_tx: row.fulfillTx,
      swap_tx: row.swapTx,
      created_at: new Date(row.createdAtMs).toISOString(),
      user_deposited_at: iso(row.userDepositedAtMs),
      kyc_requested_at: iso(row.kycRequestedAtMs),
      fulfilled_at: iso(row.fulfilledAtMs),
      swapped_at: iso(row.swappedAtMs),
      refunded_at: iso(row.refundedAtMs),
    },
    source_amount_decimals: row.sourceAmountDecimals,
    source_amount_lots: row.sourceAmountLots,
    source_chain: row.sourceChain,
    source_token: row.sourceToken,
    dest_amount_decimals: row.destAmountDecimals,
    dest_chain: row.destChain,
    dest_token: row.destToken,
    min_dest_amount_lots: row.minDestAmountLots,
    max_dest_amount_lots: row.maxDestAmountLots,
  };
}
