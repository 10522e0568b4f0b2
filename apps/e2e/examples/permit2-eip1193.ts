import type { Intent, Quote } from "@swapintent/client";
import type { Permit2DestinationExpectation } from "@swapintent/permit2";
import { type Permit2Eip1193Provider, signPermit2Approval } from "@swapintent/permit2/evm";

/**
 * A browser wallet through its bare EIP-1193 provider (`window.ethereum`, or an EIP-6963 announced one): no viem
 * client. The permit is verified first; then the wallet's account (`eth_accounts`) and chain (`eth_chainId`) are
 * read, the wallet signs with `eth_signTypedData_v4`, and the signer's address is recovered from the signature.
 */
export async function signWithInjectedWallet(
  provider: Permit2Eip1193Provider, // window.ethereum, once the user connected (eth_requestAccounts)
  intent: Intent,
  quote: Quote,
  recipient: string,
  chain: { chainId: number; permit2: string; escrow: string }, // from the wallet's configuration
  destination: Permit2DestinationExpectation,
) {
  const { approval, verified } = await signPermit2Approval({
    intent,
    quote,
    expected: { chainId: chain.chainId, recipient, spender: chain.escrow, destination },
    allowedPermit2Addresses: [chain.permit2],
    provider, // refused: another chain (PERMIT2_CHAIN_ID_MISMATCH), another signer (PERMIT2_SIGNER_MISMATCH)
  });
  console.log(verified.summary.lines.join("\n"));
  return approval;
}
