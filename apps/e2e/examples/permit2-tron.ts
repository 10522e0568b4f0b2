import type { Intent, Quote } from "@swapintent/client";
import type { Permit2DestinationExpectation } from "@swapintent/permit2";
import { signTronPermit2Approval } from "@swapintent/permit2/tron";

/** Tron: base58 addresses, TIP-712 (chain id masked to 32 bits), signed through TronWeb or a TronLink-style signer. */
export async function signOnTron(
  intent: Intent,
  quote: Quote,
  recipient: string,
  chain: { chainId: number; permit2: string; escrow: string }, // base58, from the wallet's configuration
  destination: Permit2DestinationExpectation,
) {
  const { approval } = await signTronPermit2Approval({
    intent,
    quote,
    expected: { chainId: chain.chainId, recipient, spender: chain.escrow, destination },
    allowedPermit2Addresses: [chain.permit2],
    privateKey: process.env.TRON_PRIVATE_KEY as string, // or signer: { address, signTypedData } from the wallet
  });
  return approval;
}
