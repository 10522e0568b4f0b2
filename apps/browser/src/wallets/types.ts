import type { Approval, Intent, Quote } from "@swapintent/client";

/** One wallet of the page, on one network, holding a key generated in the browser. */
export interface BrowserWallet {
  /** Network type: EVM, TRON, BITCOIN or SOLANA. */
  readonly type: string;
  readonly address: string;
  /** Hex without 0x, for sources that need `user_source_public_key` (Bitcoin, Solana). */
  readonly publicKeyHex: string | undefined;
  /** Native coin the wallet needs for its own transactions (gas for the Permit2 allowance), in human units. */
  readonly gasFunding: { token: string; amount: string } | null;
  /** On-chain work before signing (EVM/Tron: the one-time Permit2 allowance). Returns a tx hash or null. */
  prepare(params: { token: string; amountLots: bigint }): Promise<string | null>;
  /** Verifies the intent against the quote with the network's signer package, then signs it. */
  approve(params: {
    intent: Intent;
    quote: Quote;
    recipient: string;
  }): Promise<{ approval: Approval; summary: string[] }>;
}

/** Chain facts (`info` of `GET /sandbox/chains`). */
export type ChainInfo = Record<string, unknown>;

/** Reads a required string fact. */
export function readFact(info: ChainInfo, key: string): string {
  const value = info[key];
  if (typeof value !== "string" && typeof value !== "number") throw new Error(`chain facts lack \`${key}\``);
  return String(value);
}

/** Lower-case hex of bytes, without 0x (no Buffer in a browser). */
export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
