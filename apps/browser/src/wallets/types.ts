import type { Approval, Intent, Quote } from "@swapintent/client";
import type { WalletBase } from "@swapintent/testing/wallet";

export { type ChainInfo, readFact } from "@swapintent/testing/wallet";

/** One wallet of the page, on one network, holding a key generated in the browser. */
export interface BrowserWallet extends WalletBase {
  /** Verifies the intent against the quote with the network's signer package, then signs it. */
  approve(params: {
    intent: Intent;
    quote: Quote;
    recipient: string;
  }): Promise<{ approval: Approval; summary: string[] }>;
}

/** Lower-case hex of bytes, without 0x (no Buffer in a browser). */
export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
