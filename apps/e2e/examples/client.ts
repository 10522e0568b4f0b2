import { type Approval, createSwapIntentClient, type Intent, type Quote } from "@swapintent/client";

/** Quote -> intent -> (your signer) -> approval -> wait. Amounts are bigint lots; `amount` is a decimal string. */
export async function swap(sign: (intent: Intent, quote: Quote) => Promise<Approval>) {
  // An unset key fails here with INVALID_OPTIONS (never a silent call without credentials); a service that
  // needs none takes `auth: "none"`. Redirects are refused (REDIRECT_REFUSED): the key stays with baseUrl.
  // Plain http only to loopback: another http host (a CI sandbox container) needs `allowInsecureHttp: true`.
  const client = createSwapIntentClient({
    baseUrl: "http://127.0.0.1:8787",
    apiKey: process.env.SWAPINTENT_API_KEY,
  });
  const quote = await client.getBestQuote({
    sourceChain: 1,
    sourceToken: "0x4De9b883250e455Fbfb84694AB021Bbef1b05828",
    destChain: 5,
    destToken: "GTjYxM9KwReJa9UG2Xexmv42ryKcZTvny2Nc3box24wb",
    amount: "25.5",
    slippageBps: 50,
  });
  const intent = await client.createIntent({
    quote, // an expired quote fails here with QUOTE_EXPIRED, before any request
    userSourceAddress: "0x3279d973d95E8A532f541Dd3c18B8dC621CBDe91",
    refundAddress: "0x3279d973d95E8A532f541Dd3c18B8dC621CBDe91",
    userDestinationAddress: "47RbLR5hbs8imQXxmzGMVQ6ktySbmiWqHzTMVGER1Y9E",
  });
  await client.submitApproval({ intentId: intent.intentId, approval: await sign(intent, quote) });
  const final = await client.waitForIntent({ intentId: intent.intentId, timeoutMs: 10 * 60_000 });
  return final.status; // "Fulfilled" | "Declined" | "Expired" | "Refunded"
}
