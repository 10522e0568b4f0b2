import type { Intent, Quote } from "@swapintent/client";
import { signTronPermit2Approval } from "@swapintent/permit2/tron";

/** Tron: base58 addresses, TIP-712 (chain id masked to 32 bits), signed through TronWeb or a TronLink-style signer. */
export async function signOnTron(intent: Intent, quote: Quote, recipient: string, escrow: string) {
  const { approval } = await signTronPermit2Approval({
    intent,
    quote,
    expected: { chainId: 728126428, recipient, spender: escrow }, // escrow: base58, from the wallet's configuration
    privateKey: process.env.TRON_PRIVATE_KEY as string, // or signer: { address, signTypedData } from the wallet
  });
  return approval;
}
