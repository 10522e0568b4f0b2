import type { Approval, Intent, Quote } from "@swapintent/client";
import type { WalletBase } from "@swapintent/testing/wallet";

export { type ChainInfo, readFact } from "@swapintent/testing/wallet";

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
export interface DemoWallet extends WalletBase {
  /** Verify the intent against the quote, then sign it (or, in a dry run, only verify and summarise). */
  approve(params: {
    intent: Intent;
    quote: Quote;
    recipient: string;
    dryRun: boolean;
  }): Promise<WalletApproval>;
}
