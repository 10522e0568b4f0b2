import type { Intent, Quote } from "@swapintent/client";
import type { Permit2DestinationExpectation } from "@swapintent/permit2";
import { signTronPermit2Approval, type TronLinkTronWeb } from "@swapintent/permit2/tron";

/**
 * TronLink: its injected `window.tronWeb` signs the TIP-712 permit with `trx.signTypedData` (or the older
 * `trx._signTypedData`) as `defaultAddress.base58`; the signature must recover to that account's hex form.
 */
export async function signWithTronLink(
  tronWeb: TronLinkTronWeb, // window.tronWeb, once the user connected (tronLink.request({ method: "tron_requestAccounts" }))
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
    tronLink: tronWeb,
  });
  return approval;
}
