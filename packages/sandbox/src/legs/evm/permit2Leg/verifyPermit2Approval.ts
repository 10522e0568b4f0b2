import { isHex } from "viem";
import { toLegDataJson } from "../../readLegData.js";
import type { ChainLeg, Json, LegIntent, SubmittedApproval } from "../../types.js";
import { LegRejection } from "../../types.js";
import type { Permit2Engine } from "./Permit2Engine.js";
import { readPermit2LegData } from "./readPermit2LegData.js";
import { simulatePermit2Deposit } from "./simulatePermit2Deposit.js";

/**
 * `ChainLeg.verifyApproval` of a permit2 leg: a permit2 approval whose signature is 65 bytes of 0x hex with v 27 or
 * 28, before the intent's deadline, and whose deposit the engine's Permit2 and escrow would execute now (simulated
 * at the sandbox clock's time). The signature, lower-cased, joins `legData`.
 */
export async function verifyPermit2Approval({
  engine,
  intent,
  legData,
  approval,
}: {
  engine: Permit2Engine;
  intent: LegIntent;
  legData: Json;
  approval: SubmittedApproval;
}): ReturnType<ChainLeg["verifyApproval"]> {
  const data = readPermit2LegData(legData);
  if (approval.type !== "permit2")
    throw new LegRejection("APPROVAL_TYPE_MISMATCH", "this network takes a permit2 approval");
  const signature = approval.signedData;
  if (typeof signature !== "string" || !isHex(signature) || signature.length !== 132)
    throw new LegRejection("SIGNATURE_MALFORMED", "signed_data must be a 65-byte signature as 0x hex");
  const v = Number.parseInt(signature.slice(130), 16);
  if (v !== 27 && v !== 28) throw new LegRejection("SIGNATURE_INVALID", "the signature's v must be 27 or 28");
  if (engine.nowSecs() > BigInt(intent.deadlineSecs))
    throw new LegRejection("DEADLINE_PASSED", "the intent's deadline has passed");
  await simulatePermit2Deposit({ engine, intent, data, signature });
  return { legData: toLegDataJson({ ...data, signature: signature.toLowerCase() }) };
}
