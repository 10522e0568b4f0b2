import { type Hex, isErc6492Signature } from "viem";
import { toLegDataJson } from "../../readLegData.js";
import type { ChainLeg, Json, LegIntent, SubmittedApproval } from "../../types.js";
import { LegRejection } from "../../types.js";
import type { Permit2Engine } from "./Permit2Engine.js";
import { readPermit2LegData } from "./readPermit2LegData.js";
import { simulatePermit2Deposit } from "./simulatePermit2Deposit.js";
import { deployCounterfactualOwner } from "./smartAccounts.js";
import { parseUserAddress } from "./tokens.js";

/** The longest `signed_data` a permit2 approval may carry, bytes (a smart account's signature, ERC-6492 wrapped). */
export const MAX_SIGNATURE_BYTES = 16_384;

/**
 * `ChainLeg.verifyApproval` of a permit2 leg: a permit2 approval whose signature is 0x hex (for an owner without
 * code, 65 bytes with v 27 or 28; for a contract owner, or an ERC-6492 wrapper of a counterfactual one, any length
 * up to {@link MAX_SIGNATURE_BYTES}: what Permit2 accepts decides), before the intent's deadline, and whose deposit
 * the engine's Permit2 and escrow would execute now (simulated at the sandbox clock's time). An ERC-6492 wrapper's
 * factory call deploys the account first, only when it deploys exactly the owner. The signature Permit2 gets,
 * lower-cased, joins `legData`.
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
  const submitted = approval.signedData;
  if (
    typeof submitted !== "string" ||
    !submitted.startsWith("0x") ||
    !/^0x(?:[0-9a-fA-F]{2})+$/.test(submitted) ||
    submitted.length > 2 + 2 * MAX_SIGNATURE_BYTES
  )
    throw new LegRejection(
      "SIGNATURE_MALFORMED",
      `signed_data must be a signature as 0x hex (65 bytes for a key-held account, at most ${MAX_SIGNATURE_BYTES})`,
    );
  const owner = parseUserAddress({
    options: engine.setup.options,
    address: intent.userSourceAddress,
    what: "user_source_address",
  });
  const ownerCode = await engine.client.getCode({ address: owner });
  const contractOwner =
    (ownerCode !== undefined && ownerCode !== "0x") || isErc6492Signature(submitted as Hex);
  // A key-held owner (no code): exactly a 65-byte signature with v 27/28. A contract owner: what Permit2 accepts.
  if (!contractOwner) {
    if (submitted.length !== 132)
      throw new LegRejection("SIGNATURE_MALFORMED", "signed_data must be a 65-byte signature as 0x hex");
    const v = Number.parseInt(submitted.slice(130), 16);
    if (v !== 27 && v !== 28)
      throw new LegRejection("SIGNATURE_INVALID", "the signature's v must be 27 or 28");
  }
  if (engine.nowSecs() > BigInt(intent.deadlineSecs))
    throw new LegRejection("DEADLINE_PASSED", "the intent's deadline has passed");
  const signature = await deployCounterfactualOwner({
    engine,
    owner,
    signature: submitted.toLowerCase() as Hex,
  });
  await simulatePermit2Deposit({ engine, intent, data, signature });
  return { legData: toLegDataJson({ ...data, signature }) };
}
