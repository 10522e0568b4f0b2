import type { Intent, Quote } from "@swapintent/client";
import { signPermit2Approval } from "@swapintent/permit2/evm";
import { privateKeyToAccount } from "viem/accounts";

/** Verify the permit2 intent against the quote, then sign it; throws a coded BaseError on any mismatch. */
export async function signOnEvm(intent: Intent, quote: Quote, recipient: string, escrow: string) {
  const account = privateKeyToAccount(process.env.EVM_PRIVATE_KEY as `0x${string}`);
  const { approval, verified } = await signPermit2Approval({
    intent,
    quote,
    // The wallet's own facts, never the service's: its chain, what the user typed, the escrow it trusts as spender.
    expected: { chainId: 1, recipient, owner: account.address, spender: escrow },
    signer: account, // or a viem WalletClient over window.ethereum, or any { address, signTypedData }
  });
  console.log(verified.summary.lines.join("\n")); // what the user approves
  return approval;
}
