import type { Intent, Quote } from "@swapintent/client";
import type { Permit2DestinationExpectation } from "@swapintent/permit2";
import { signPermit2Approval } from "@swapintent/permit2/evm";
import { privateKeyToAccount } from "viem/accounts";

/** The wallet's own facts about its chain, from its configuration (against the sandbox: `GET /sandbox/chains`). */
export interface EvmChainFacts {
  chainId: number;
  /** The Permit2 deployment; the canonical one is always accepted, any other must be listed. */
  permit2: string;
  /** The escrow contract the wallet trusts as spender. */
  escrow: string;
}

/** Verify the permit2 intent against the quote, then sign it; throws a coded SwapIntentError on any mismatch. */
export async function signOnEvm(
  intent: Intent,
  quote: Quote,
  recipient: string,
  chain: EvmChainFacts,
  destination: Permit2DestinationExpectation, // { network, token, decimals, minAmountLots } from the wallet's registry
) {
  const account = privateKeyToAccount(process.env.EVM_PRIVATE_KEY as `0x${string}`);
  const { approval, verified } = await signPermit2Approval({
    intent,
    quote,
    // The wallet's own facts, never the service's: its chain, what the user typed, the escrow it trusts as spender,
    // and the destination network, token, decimals and the least the user accepts.
    expected: {
      chainId: chain.chainId,
      recipient,
      owner: account.address,
      spender: chain.escrow,
      destination,
    },
    allowedPermit2Addresses: [chain.permit2],
    signer: account, // or a viem WalletClient, any { address, signTypedData }; or provider: window.ethereum
  });
  console.log(verified.summary.lines.join("\n")); // what the user approves
  return approval;
}
