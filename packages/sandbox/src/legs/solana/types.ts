import type { Address } from "@solana/kit";
import type { SolanaLegKeys } from "./deriveKeys.js";
import type { SolanaEngine } from "./engine.js";

/** A started Solana leg: its litesvm engine and its keys. */
export interface StartedSolanaLeg {
  engine: SolanaEngine;
  keys: SolanaLegKeys;
}

/** A catalogue token: native SOL (lamports), or an SPL mint with its decimals. */
export type ResolvedToken = { kind: "native" } | { kind: "spl"; mint: Address; decimals: number };

/** What the leg stores with an intent (plain JSON; amounts as decimal strings). */
export interface CosignLegData {
  /** Hex of the message bytes the user must sign, exactly as built. */
  message: string;
  blockhash: string;
  mint: string;
  decimals: number;
  amountLots: string;
  userAddress: string;
  userTokenAccount: string;
  escrowOwner: string;
  escrowTokenAccount: string;
  /** Hex of the transaction with the user's signature, once verified. */
  signedTransaction?: string;
  depositTx?: string;
}
