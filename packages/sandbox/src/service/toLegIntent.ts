import type { IntentRow } from "../db/intentRow.js";
import type { LegIntent } from "../legs/types.js";

/** The intent as legs see it (no secret inside). */
export function toLegIntent(row: IntentRow): LegIntent {
  return {
    intentId: row.id,
    sourceToken: row.sourceToken,
    sourceAmountLots: BigInt(row.sourceAmountLots),
    destChain: row.destChain,
    destToken: row.destToken,
    minDestAmountLots: BigInt(row.minDestAmountLots),
    maxDestAmountLots: BigInt(row.maxDestAmountLots),
    userSourceAddress: row.userSourceAddress,
    userSourcePublicKey: row.userSourcePublicKey,
    userDestinationAddress: row.userDestinationAddress,
    refundAddress: row.refundAddress,
    secretHash: row.secretHash as `0x${string}`,
    deadlineSecs: row.deadlineSecs,
  };
}
