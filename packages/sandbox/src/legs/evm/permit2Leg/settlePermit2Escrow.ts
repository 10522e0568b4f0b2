import { bytesToHex } from "viem";
import type { LegIntent } from "../../types.js";
import { getIntentIdBytes32 } from "../buildPermit2ParamsToSign.js";
import type { EscrowLock, Permit2Engine } from "./Permit2Engine.js";

/**
 * `ChainLeg.claim` of a permit2 leg: the resolver claims the escrow's lock with the secret. Anything but an earlier
 * claim (including a wrong secret) is for the escrow contract to refuse.
 */
export function claimPermit2Escrow({
  engine,
  intent,
  secret,
}: {
  engine: Permit2Engine;
  intent: LegIntent;
  secret: Uint8Array;
}): Promise<{ txHash: string }> {
  const intentId = getIntentIdBytes32(intent.intentId);
  return settleOnce({
    engine,
    intentId,
    settled: "Claimed",
    functionName: "claim",
    args: [intentId, bytesToHex(secret)],
  });
}

/** `ChainLeg.refund` of a permit2 leg: the escrow returns the lock to its owner (the contract refuses it before the deadline). */
export function refundPermit2Escrow({
  engine,
  intent,
}: {
  engine: Permit2Engine;
  intent: LegIntent;
}): Promise<{ txHash: string }> {
  const intentId = getIntentIdBytes32(intent.intentId);
  return settleOnce({ engine, intentId, settled: "Refunded", functionName: "refund", args: [intentId] });
}

/**
 * Settle an escrow lock once: when the lock is already in the `settled` state (a retry after a crash), answer with
 * the transaction of the escrow's event of the same name; otherwise the resolver calls `functionName`.
 */
function settleOnce({
  engine,
  intentId,
  settled,
  functionName,
  args,
}: {
  engine: Permit2Engine;
  intentId: `0x${string}`;
  settled: Extract<EscrowLock["state"], "Claimed" | "Refunded">;
  functionName: "claim" | "refund";
  args: readonly unknown[];
}): Promise<{ txHash: string }> {
  return engine.serialize(async () => {
    const lock = await engine.readLock(intentId);
    if (lock.state === settled) {
      const txHash = await engine.findEventTx({ eventName: settled, intentId });
      if (txHash) return { txHash };
    }
    const { escrow, abis } = engine.contracts;
    const account = engine.setup.resolver;
    return { txHash: await engine.write({ account, to: escrow, abi: abis.escrow, functionName, args }) };
  });
}
