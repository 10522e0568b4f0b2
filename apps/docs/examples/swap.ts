import {
  type Approval,
  formatLots,
  type Intent,
  type IntentStatus,
  type Quote,
  type SwapIntentClient,
} from "@swapintent/client";

/** Parameters of {@link swap}. */
export interface SwapParameters {
  client: SwapIntentClient;
  /** The user's side: network id, token address, the user's address there (and, for Bitcoin and Solana, key). */
  from: { networkId: number; token: string; address: string; publicKey?: string };
  /** Where the user receives: network id, token address and the address the user typed. */
  to: { networkId: number; token: string; address: string };
  /** The amount to sell, a decimal string in the source token's units ("25.5"). */
  amount: string;
  /** Verifies the intent against the quote and signs it: one of the signer packages (the chain guides). */
  sign: (parameters: { intent: Intent; quote: Quote }) => Promise<Approval>;
}

/**
 * Quote -> intent -> the wallet verifies and signs -> approval -> the final status. Amounts in the quote and the
 * intent are bigint lots; only `amount` is a decimal string.
 */
export async function swap({ client, from, to, amount, sign }: SwapParameters): Promise<IntentStatus> {
  const quote = await client.getBestQuote({
    sourceChain: from.networkId,
    sourceToken: from.token,
    destChain: to.networkId,
    destToken: to.token,
    amount,
    slippageBps: 50,
  });
  const least = formatLots({ value: quote.minDestAmountLots, decimals: quote.destAmountDecimals });
  console.log(`quote ${quote.id}: at least ${least} arrive`);
  // An expired quote fails here with QUOTE_EXPIRED before any request: ask for a new one.
  const intent = await client.createIntent({
    quote,
    userSourceAddress: from.address,
    refundAddress: from.address,
    userDestinationAddress: to.address,
    userSourcePublicKey: from.publicKey, // Bitcoin and Solana sources only
  });
  const approval = await sign({ intent, quote });
  await client.submitApproval({ intentId: intent.intentId, approval });
  const final = await client.waitForIntent({
    intentId: intent.intentId,
    timeoutMs: 5 * 60_000,
    onStatusChange: (status) => console.log(`intent ${intent.intentId}: ${status.status}`),
  });
  return final.status; // "Fulfilled" | "Declined" | "Expired" | "Refunded"
}
