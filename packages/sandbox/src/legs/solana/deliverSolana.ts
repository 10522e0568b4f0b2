import type { Address } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import {
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
} from "@solana-program/token";
import type { ChainLeg } from "../types.js";
import { LegRejection } from "../types.js";
import { getIntentRecord } from "./getIntentRecord.js";
import { createNextMemoInstruction } from "./memo.js";
import { getAta, getSolanaInventory, parseSolanaPayment } from "./tokens.js";
import type { ResolvedToken, StartedSolanaLeg } from "./types.js";

/**
 * `ChainLeg.deliver` of the Solana leg: the resolver pays the recipient from its inventory (refused when too small).
 * A retry answers with the recorded delivery.
 */
export async function deliverSolana({
  leg,
  request,
}: {
  leg: StartedSolanaLeg;
  request: Parameters<ChainLeg["deliver"]>[0];
}): Promise<{ txHash: string }> {
  const { token, recipient } = parseSolanaPayment({ leg, ...request, what: "recipient" });
  const record = getIntentRecord({ leg, intentId: request.intentId });
  if (record.deliver !== undefined) return { txHash: record.deliver };
  if ((await getSolanaInventory({ leg, token: request.token })) < request.amountLots)
    throw new LegRejection("INSUFFICIENT_INVENTORY", "the resolver's inventory is too small");
  const label = `deliver:${request.intentId}`;
  record.deliver = await payFromResolver({ leg, token, recipient, amount: request.amountLots, label });
  return { txHash: record.deliver };
}

/** Send `amount` of `token` from the resolver to `recipient` (creating the recipient's token account). */
export async function payFromResolver({
  leg,
  token,
  recipient,
  amount,
  label,
}: {
  leg: StartedSolanaLeg;
  token: ResolvedToken;
  recipient: Address;
  amount: bigint;
  label: string;
}): Promise<string> {
  const { engine } = leg;
  const resolver = leg.keys.resolver;
  const memo = createNextMemoInstruction({ leg, label });
  if (token.kind === "native")
    return engine.run(resolver, [
      getTransferSolInstruction({ source: resolver, destination: recipient, amount }),
      memo,
    ]);
  const from = await getAta({ owner: resolver.address, mint: token.mint });
  const to = await getAta({ owner: recipient, mint: token.mint });
  return engine.run(resolver, [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: resolver,
      ata: to,
      owner: recipient,
      mint: token.mint,
    }),
    getTransferCheckedInstruction({
      source: from,
      mint: token.mint,
      destination: to,
      authority: resolver,
      amount,
      decimals: token.decimals,
    }),
    memo,
  ]);
}
