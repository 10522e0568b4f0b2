import { partiallySignTransaction } from "@solana/kit";
import { toLegDataJson } from "../readLegData.js";
import type { Json, LegIntent } from "../types.js";
import { LegRejection } from "../types.js";
import { decodeTransaction } from "./decodeTransaction.js";
import { getIntentRecord } from "./getIntentRecord.js";
import { readCosignLegData } from "./readCosignLegData.js";
import type { StartedSolanaLeg } from "./types.js";

/**
 * `ChainLeg.deposit` of the Solana leg: the resolver cosigns the user's verified transaction and executes it. Called
 * again (a retry after a crash), it answers with the recorded transaction and never sends it again.
 */
export async function depositCosign({
  leg,
  intent,
  legData: legDataJson,
}: {
  leg: StartedSolanaLeg;
  intent: LegIntent;
  legData: Json;
}): Promise<{ txHash: string; legData: Json }> {
  const { engine, keys } = leg;
  const legData = readCosignLegData(legDataJson);
  if (legData.signedTransaction === undefined)
    throw new LegRejection("APPROVAL_MISSING", "no verified approval");
  const record = getIntentRecord({ leg, intentId: intent.intentId });
  const done = record.deposit;
  if (done !== undefined) return { txHash: done, legData: toLegDataJson({ ...legData, depositTx: done }) };
  const tx = await partiallySignTransaction(
    [keys.resolver.keyPair],
    decodeTransaction({ hex: legData.signedTransaction, code: "TRANSACTION_MALFORMED" }),
  );
  const txHash = engine.execute(tx, "DEPOSIT_FAILED");
  record.deposit = txHash;
  return { txHash, legData: toLegDataJson({ ...legData, depositTx: txHash }) };
}
