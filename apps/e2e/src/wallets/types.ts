import type { Approval, Intent, Quote } from "@swapintent/client";

/** What a wallet produced for an intent: the approval to submit (absent in a dry run) and what the user saw. */
export interface WalletApproval {
  approval: Approval | null;
  /** The signer's human-readable summary of what is (or would be) signed. */
  summary: string[];
}

/**
 * One user's wallet on one network, as a wallet app would hold it. Every `approve` goes through the
 * network's signer package, which verifies the intent against the quote before anything is signed.
 */
export interface DemoWallet {
  /** Network type: EVM, TRON, BITCOIN or SOLANA. */
  readonly type: string;
  readonly address: string;
  /** Hex without 0x, for sources that need `user_source_public_key` (Bitcoin, Solana). */
  readonly publicKeyHex: string | undefined;
  /** Native coin the wallet needs for its own transactions (e.g. gas for the Permit2 allowance), in human units. */
  readonly gasFunding: { token: string; amount: string } | null;
  /** Anything the wallet must do on chain before signing (EVM/Tron: the one-time Permit2 allowance). Returns a tx hash or null. */
  prepare(params: { token: string; amountLots: bigint }): Promise<string | null>;
  /** Verify the intent against the quote, then sign it (or, in a dry run, only verify and summarise). */
  approve(params: {
    intent: Intent;
    quote: Quote;
    recipient: string;
    dryRun: boolean;
  }): Promise<WalletApproval>;
}

/** Chain facts as `GET /sandbox/chains` lists them (`info`), or as a deployment's configuration gives them. */
export type ChainInfo = Record<string, unknown>;

/** Reads a required string fact. */
export function fact(info: ChainInfo, key: string): string {
  const value = info[key];
  if (typeof value !== "string" && typeof value !== "number") {
    throw new Error(`chain facts lack \`${key}\``);
  }
  return String(value);
}
