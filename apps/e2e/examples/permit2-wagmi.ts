import type { Intent, Quote } from "@swapintent/client";
import type { Permit2DestinationExpectation } from "@swapintent/permit2";
import { signPermit2Approval } from "@swapintent/permit2/evm";
import { type Config, getWalletClient } from "@wagmi/core";

/** wagmi: the connected account's viem WalletClient (`getWalletClient`) goes to the WalletClient path. */
export async function signWithWagmi(
  config: Config, // your app's createConfig({ chains, connectors, transports })
  intent: Intent,
  quote: Quote,
  recipient: string,
  chain: { chainId: number; permit2: string; escrow: string }, // from the wallet's configuration
  destination: Permit2DestinationExpectation,
) {
  const walletClient = await getWalletClient(config, { chainId: chain.chainId });
  const { approval } = await signPermit2Approval({
    intent,
    quote,
    expected: { chainId: chain.chainId, recipient, spender: chain.escrow, destination },
    allowedPermit2Addresses: [chain.permit2],
    signer: walletClient, // its chain and the recovered signer are checked before the approval is returned
  });
  return approval;
}
