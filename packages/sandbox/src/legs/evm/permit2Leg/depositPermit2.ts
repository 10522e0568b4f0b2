import { toLegDataJson } from "../../readLegData.js";
import type { ChainLeg, Json, LegIntent } from "../../types.js";
import { LegRejection } from "../../types.js";
import { getIntentIdBytes32 } from "../buildPermit2ParamsToSign.js";
import type { Permit2Engine } from "./Permit2Engine.js";
import { readPermit2LegData } from "./readPermit2LegData.js";
import { getPermit2DepositCall, simulatePermit2Deposit } from "./simulatePermit2Deposit.js";

/**
 * `ChainLeg.deposit` of a permit2 leg: the resolver sends the escrow's `deposit` with the verified signature
 * (simulated first). Called again after a crash, it answers with the earlier transaction: the escrow's lock for
 * the intent shows the deposit happened, and its hash comes from `legData` or the escrow's `Deposited` event.
 */
export function depositPermit2({
  engine,
  intent,
  legData,
}: {
  engine: Permit2Engine;
  intent: LegIntent;
  legData: Json;
}): ReturnType<ChainLeg["deposit"]> {
  return engine.serialize(async () => {
    const data = readPermit2LegData(legData);
    const intentId = getIntentIdBytes32(intent.intentId);
    const lock = await engine.readLock(intentId);
    if (lock.state !== "None") {
      const txHash = data.depositTxHash ?? (await engine.findEventTx({ eventName: "Deposited", intentId }));
      if (!txHash) throw new Error("the escrow holds the intent's deposit but its transaction was not found");
      return { txHash, legData: toLegDataJson({ ...data, depositTxHash: txHash }) };
    }
    if (!data.signature) throw new LegRejection("APPROVAL_MISSING", "no verified signature for this intent");
    await simulatePermit2Deposit({ engine, intent, data, signature: data.signature });
    const call = getPermit2DepositCall({ engine, intent, data, signature: data.signature });
    const txHash = await engine.write({
      account: engine.setup.resolver,
      to: engine.contracts.escrow,
      abi: engine.contracts.abis.escrow,
      functionName: "deposit",
      args: call.args,
    });
    return { txHash, legData: toLegDataJson({ ...data, depositTxHash: txHash }) };
  });
}
