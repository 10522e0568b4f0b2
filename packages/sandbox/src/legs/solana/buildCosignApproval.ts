import { createNoopSigner, getTransactionEncoder } from "@solana/kit";
import {
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
} from "@solana-program/token";
import { toLegDataJson } from "../readLegData.js";
import type { ChainLeg, LegIntent } from "../types.js";
import { LegRejection } from "../types.js";
import { SOL_DECIMALS, WRAPPED_SOL_MINT } from "./constants.js";
import { toHex } from "./decodeTransaction.js";
import { createMemoInstruction } from "./memo.js";
import { getAta, parseSolanaAddress, resolveSolanaToken, solanaKeyMatchesAddress } from "./tokens.js";
import type { CosignLegData, StartedSolanaLeg } from "./types.js";

/**
 * `ChainLeg.buildApproval` of the Solana leg: the v0 deposit transaction of apps/docs/pages/reference/approvals.md (cosign), paid by the
 * resolver: create the escrow token account (owned by the resolver's deposit key), transfer the amount from the user's
 * token account (native SOL moves as wSOL), and a memo naming the intent and its secret hash. `legData` keeps the
 * exact message bytes so `verifyApproval` can refuse any other.
 */
export async function buildCosignApproval({
  leg,
  intent,
}: {
  leg: StartedSolanaLeg;
  intent: LegIntent;
}): ReturnType<ChainLeg["buildApproval"]> {
  const { engine, keys } = leg;
  const token = resolveSolanaToken({ leg, token: intent.sourceToken });
  const spl = token.kind === "native" ? { mint: WRAPPED_SOL_MINT, decimals: SOL_DECIMALS } : token;
  const user = parseSolanaAddress({ value: intent.userSourceAddress, what: "user source address" });
  if (intent.userSourcePublicKey !== null && !solanaKeyMatchesAddress(user, intent.userSourcePublicKey))
    throw new LegRejection("PUBLIC_KEY_MISMATCH", "the user's public key does not match the source address");
  if (intent.sourceAmountLots <= 0n) throw new LegRejection("AMOUNT_INVALID", "the amount must be positive");
  const userTokenAccount = await getAta({ owner: user, mint: spl.mint });
  const escrowTokenAccount = await getAta({ owner: keys.deposit.address, mint: spl.mint });
  engine.syncClock();
  const tx = engine.compile(keys.resolver.address, [
    getCreateAssociatedTokenIdempotentInstruction({
      payer: createNoopSigner(keys.resolver.address),
      ata: escrowTokenAccount,
      owner: keys.deposit.address,
      mint: spl.mint,
    }),
    getTransferCheckedInstruction({
      source: userTokenAccount,
      mint: spl.mint,
      destination: escrowTokenAccount,
      authority: createNoopSigner(user),
      amount: intent.sourceAmountLots,
      decimals: spl.decimals,
    }),
    createMemoInstruction(`swapintent:${intent.intentId}:${intent.secretHash}`),
  ]);
  const legData: CosignLegData = {
    message: toHex(tx.messageBytes),
    blockhash: engine.svm.latestBlockhash(),
    mint: spl.mint,
    decimals: spl.decimals,
    amountLots: intent.sourceAmountLots.toString(),
    userAddress: user,
    userTokenAccount,
    escrowOwner: keys.deposit.address,
    escrowTokenAccount,
  };
  return {
    paramsToSign: { transaction: toHex(getTransactionEncoder().encode(tx)) },
    legData: toLegDataJson(legData),
    proxyAddress: escrowTokenAccount,
  };
}
