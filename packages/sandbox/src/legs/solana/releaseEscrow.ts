import { createHash } from "node:crypto";
import { type Address, address } from "@solana/kit";
import {
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
} from "@solana-program/token";
import type { Json, LegIntent } from "../types.js";
import { LegRejection } from "../types.js";
import { getIntentRecord, type IntentRecord } from "./getIntentRecord.js";
import { createMemoInstruction } from "./memo.js";
import { readCosignLegData } from "./readCosignLegData.js";
import { getAta } from "./tokens.js";
import type { CosignLegData, StartedSolanaLeg } from "./types.js";

/**
 * `ChainLeg.claim` of the Solana leg: with the right secret, the escrow token account pays the resolver's inventory.
 * A retry answers with the recorded claim; a refunded or never deposited escrow is refused.
 */
export async function claimCosignEscrow({
  leg,
  intent,
  legData,
  secret,
}: {
  leg: StartedSolanaLeg;
  intent: LegIntent;
  legData: Json;
  secret: Uint8Array;
}): Promise<{ txHash: string }> {
  const data = readCosignLegData(legData);
  const hash = `0x${createHash("sha256").update(secret).digest("hex")}`;
  if (hash !== intent.secretHash.toLowerCase())
    throw new LegRejection("SECRET_MISMATCH", "the secret does not match the hash");
  const record = getIntentRecord({ leg, intentId: intent.intentId });
  if (record.claim !== undefined) return { txHash: record.claim };
  if (record.refund !== undefined) throw new LegRejection("ALREADY_REFUNDED", "the escrow was refunded");
  assertDeposited(record);
  const owner = leg.keys.resolver.address;
  const destination = await getAta({ owner, mint: address(data.mint) });
  record.claim = await releaseEscrow({ leg, intent, data, owner, destination, label: "claim" });
  return { txHash: record.claim };
}

/**
 * `ChainLeg.refund` of the Solana leg: the escrow token account pays the user's token account back. A retry answers
 * with the recorded refund; a claimed or never deposited escrow is refused.
 */
export async function refundCosignEscrow({
  leg,
  intent,
  legData,
}: {
  leg: StartedSolanaLeg;
  intent: LegIntent;
  legData: Json;
}): Promise<{ txHash: string }> {
  const data = readCosignLegData(legData);
  const record = getIntentRecord({ leg, intentId: intent.intentId });
  if (record.refund !== undefined) return { txHash: record.refund };
  if (record.claim !== undefined) throw new LegRejection("ALREADY_CLAIMED", "the escrow was claimed");
  assertDeposited(record);
  const owner = address(data.userAddress);
  const destination = address(data.userTokenAccount);
  record.refund = await releaseEscrow({ leg, intent, data, owner, destination, label: "refund" });
  return { txHash: record.refund };
}

/** Refuse to release an escrow that holds nothing (`NOT_DEPOSITED`). */
function assertDeposited(record: IntentRecord): void {
  if (record.deposit === undefined)
    throw new LegRejection("NOT_DEPOSITED", "nothing is escrowed for this intent");
}

/**
 * Move the escrowed amount to `destination` (created for `owner` when missing), signed by the escrow owner and paid by
 * the resolver, with a memo `swapintent:<label>:<intentId>`.
 */
async function releaseEscrow({
  leg,
  intent,
  data,
  owner,
  destination,
  label,
}: {
  leg: StartedSolanaLeg;
  intent: LegIntent;
  data: CosignLegData;
  owner: Address;
  destination: Address;
  label: "claim" | "refund";
}): Promise<string> {
  const { engine, keys } = leg;
  const mint = address(data.mint);
  return engine.run(
    keys.resolver,
    [
      getCreateAssociatedTokenIdempotentInstruction({ payer: keys.resolver, ata: destination, owner, mint }),
      getTransferCheckedInstruction({
        source: address(data.escrowTokenAccount),
        mint,
        destination,
        authority: keys.deposit,
        amount: BigInt(data.amountLots),
        decimals: data.decimals,
      }),
      createMemoInstruction(`swapintent:${label}:${intent.intentId}`),
    ],
    [keys.deposit],
  );
}
