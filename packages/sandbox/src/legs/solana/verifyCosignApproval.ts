import { createPublicKey, verify as verifyEd25519 } from "node:crypto";
import { address, getAddressEncoder, partiallySignTransaction, type Transaction } from "@solana/kit";
import { toLegDataJson } from "../readLegData.js";
import type { ChainLeg, Json, LegIntent, SubmittedApproval } from "../types.js";
import { LegRejection } from "../types.js";
import { decodeTransaction, toHex } from "./decodeTransaction.js";
import { readCosignLegData } from "./readCosignLegData.js";
import type { StartedSolanaLeg } from "./types.js";

/** The DER prefix of an ed25519 SubjectPublicKeyInfo; the 32 key bytes follow. */
const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

/**
 * `ChainLeg.verifyApproval` of the Solana leg: a cosign approval from the intent's user, whose transaction's message is
 * byte for byte the one built, carrying the user's valid ed25519 signature, and which executes once the resolver
 * cosigns (simulated on litesvm). The signed transaction joins `legData`.
 */
export async function verifyCosignApproval({
  leg,
  intent,
  legData: legDataJson,
  approval,
}: {
  leg: StartedSolanaLeg;
  intent: LegIntent;
  legData: Json;
  approval: SubmittedApproval;
}): ReturnType<ChainLeg["verifyApproval"]> {
  const legData = readCosignLegData(legDataJson);
  if (approval.type !== "cosign")
    throw new LegRejection("APPROVAL_TYPE_MISMATCH", "a Solana intent takes a cosign approval");
  const signed = approval.signedData as {
    transaction?: unknown;
    user_address?: unknown;
    userAddress?: unknown;
  } | null;
  const hex = signed?.transaction;
  const userAddress = signed?.user_address ?? signed?.userAddress;
  if (typeof hex !== "string" || typeof userAddress !== "string")
    throw new LegRejection("APPROVAL_MALFORMED", "signed_data needs transaction (hex) and user_address");
  if (userAddress !== intent.userSourceAddress || userAddress !== legData.userAddress)
    throw new LegRejection("USER_MISMATCH", "user_address is not the intent's source address");
  const tx = decodeTransaction({ hex, code: "TRANSACTION_MALFORMED" });
  if (toHex(tx.messageBytes) !== legData.message)
    throw new LegRejection(
      "TRANSACTION_MODIFIED",
      "the signed transaction's message differs from the one built",
    );
  assertUserSignature({ tx, userAddress });
  const cosigned = await partiallySignTransaction([leg.keys.resolver.keyPair], tx);
  leg.engine.simulate(cosigned, "SIMULATION_FAILED");
  return { legData: toLegDataJson({ ...legData, signedTransaction: hex.replace(/^0x/, "") }) };
}

/** The user's signature must be present (`SIGNATURE_MISSING`) and verify over the message (`SIGNATURE_INVALID`). */
function assertUserSignature({ tx, userAddress }: { tx: Transaction; userAddress: string }): void {
  const signature = tx.signatures[address(userAddress)];
  if (signature === null || signature === undefined)
    throw new LegRejection("SIGNATURE_MISSING", "the user's signature is missing");
  const spki = Buffer.concat([
    ED25519_SPKI_PREFIX,
    Buffer.from(getAddressEncoder().encode(address(userAddress))),
  ]);
  const valid = verifyEd25519(
    null,
    Uint8Array.from(tx.messageBytes),
    createPublicKey({ key: spki, format: "der", type: "spki" }),
    Uint8Array.from(signature),
  );
  if (!valid) throw new LegRejection("SIGNATURE_INVALID", "the user's signature does not verify");
}
