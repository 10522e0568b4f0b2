import { lamports } from "@solana/kit";
import { getCreateAccountInstruction, getTransferSolInstruction } from "@solana-program/system";
import {
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToInstruction,
  getSyncNativeInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { FailedTransactionMetadata } from "litesvm";
import {
  RESOLVER_AIRDROP,
  USDC_DECIMALS,
  USDC_INVENTORY,
  WRAPPED_SOL_MINT,
  WSOL_INVENTORY,
} from "./constants.js";
import { createNextMemoInstruction } from "./memo.js";
import { getAta } from "./tokens.js";
import type { StartedSolanaLeg } from "./types.js";

/** A fresh chain: the resolver's lamports, the USDC mint, and the resolver's funded USDC and wSOL inventory accounts. */
export async function initializeSolanaChain({ leg }: { leg: StartedSolanaLeg }): Promise<void> {
  const { engine, keys } = leg;
  const { resolver, usdcMint } = keys;
  const airdrop = engine.svm.airdrop(resolver.address, lamports(RESOLVER_AIRDROP));
  if (airdrop === null || airdrop instanceof FailedTransactionMetadata) {
    throw new Error(`litesvm airdrop to the resolver failed: ${String(airdrop)}`);
  }
  const space = BigInt(getMintSize());
  const usdcInventory = await getAta({ owner: resolver.address, mint: usdcMint.address });
  const wsolInventory = await getAta({ owner: resolver.address, mint: WRAPPED_SOL_MINT });
  const createInventory = (ata: typeof usdcInventory, mint: typeof usdcInventory) =>
    getCreateAssociatedTokenIdempotentInstruction({ payer: resolver, ata, owner: resolver.address, mint });
  await engine.run(
    resolver,
    [
      getCreateAccountInstruction({
        payer: resolver,
        newAccount: usdcMint,
        lamports: lamports(engine.svm.minimumBalanceForRentExemption(space)),
        space,
        programAddress: TOKEN_PROGRAM_ADDRESS,
      }),
      getInitializeMint2Instruction({
        mint: usdcMint.address,
        decimals: USDC_DECIMALS,
        mintAuthority: resolver.address,
      }),
      createInventory(usdcInventory, usdcMint.address),
      getMintToInstruction({
        mint: usdcMint.address,
        token: usdcInventory,
        mintAuthority: resolver,
        amount: USDC_INVENTORY,
      }),
      createInventory(wsolInventory, WRAPPED_SOL_MINT),
      getTransferSolInstruction({ source: resolver, destination: wsolInventory, amount: WSOL_INVENTORY }),
      getSyncNativeInstruction({ account: wsolInventory }),
      createNextMemoInstruction({ leg, label: "init" }),
    ],
    [usdcMint],
  );
}
