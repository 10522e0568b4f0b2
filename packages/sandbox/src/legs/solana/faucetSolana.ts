import { getTransferSolInstruction } from "@solana-program/system";
import {
  getCreateAssociatedTokenIdempotentInstruction,
  getMintToInstruction,
  getSyncNativeInstruction,
} from "@solana-program/token";
import { type ChainLeg, LegRejection } from "../types.js";
import { WRAPPED_SOL_MINT } from "./constants.js";
import { payFromResolver } from "./deliverSolana.js";
import { createNextMemoInstruction } from "./memo.js";
import { getAta, parseSolanaPayment } from "./tokens.js";
import type { StartedSolanaLeg } from "./types.js";

/** The largest u64. */
const U64_MAX = 2n ** 64n - 1n;

/**
 * `ChainLeg.faucet` of the Solana leg: SOL from the resolver; wSOL as lamports into the recipient's wSOL account
 * (synced); USDC minted by the resolver, the mint authority.
 */
export async function faucetSolana({
  leg,
  request,
}: {
  leg: StartedSolanaLeg;
  request: Parameters<ChainLeg["faucet"]>[0];
}): Promise<{ txHash: string }> {
  const { token, recipient } = parseSolanaPayment({
    leg,
    token: request.token,
    recipient: request.address,
    amountLots: request.amountLots,
    what: "address",
  });
  const resolver = leg.keys.resolver;
  const amount = request.amountLots;
  // Lamports and token amounts are u64: a larger amount cannot be encoded in an instruction.
  if (amount > U64_MAX) throw new LegRejection("AMOUNT_INVALID", "more than a u64 amount");
  if (token.kind === "native")
    return { txHash: await payFromResolver({ leg, token, recipient, amount, label: "faucet" }) };
  const account = await getAta({ owner: recipient, mint: token.mint });
  const create = getCreateAssociatedTokenIdempotentInstruction({
    payer: resolver,
    ata: account,
    owner: recipient,
    mint: token.mint,
  });
  const fund =
    token.mint === WRAPPED_SOL_MINT
      ? [
          getTransferSolInstruction({ source: resolver, destination: account, amount }),
          getSyncNativeInstruction({ account }),
        ]
      : [getMintToInstruction({ mint: token.mint, token: account, mintAuthority: resolver, amount })];
  const memo = createNextMemoInstruction({ leg, label: "faucet" });
  return { txHash: await leg.engine.run(resolver, [create, ...fund, memo]) };
}
