import {
  formatLots,
  type Intent,
  isSwapIntentError,
  parseLots,
  type Quote,
  type SwapIntentClient,
} from "@swapintent/client";
import type { DevApi } from "@swapintent/testing/devApi";
import type { BrowserWallet } from "./wallets/types.js";

/** One end of a route: a network id, a token address and the page's wallet on that network. */
export interface RouteEnd {
  networkId: number;
  networkType: string;
  token: string;
  wallet: BrowserWallet;
}

/** What {@link runRoute} reports while it runs and at the end. */
export interface RouteProgress {
  step: string;
  /** The intent's raw status once one is known (`Fulfilled` at the happy end). */
  status: string | null;
  intentId: string | null;
  done: boolean;
  error: string | null;
  /** What the signer package verified and signed, in words (shown to the user). */
  summary: string[];
}

/**
 * Runs one route in the browser: funds the source wallet through the sandbox faucet, gets a quote, creates the intent,
 * gives Permit2 its allowance where needed, verifies and signs with the source network's signer package, submits the
 * approval and polls the status to a terminal one. Never throws: a failure ends with `error` set.
 */
export async function runRoute(params: {
  client: SwapIntentClient;
  dev: DevApi;
  from: RouteEnd;
  to: RouteEnd;
  amount: string;
  onProgress: (progress: RouteProgress) => void;
}): Promise<RouteProgress> {
  const { client, dev, from, to, amount, onProgress } = params;
  const state: RouteProgress = {
    step: "start",
    status: null,
    intentId: null,
    done: false,
    error: null,
    summary: [],
  };
  const report = (patch: Partial<RouteProgress>) => {
    Object.assign(state, patch);
    onProgress({ ...state });
  };
  try {
    report({ step: "fund" });
    await fundSource(dev, from, amount);

    report({ step: "quote" });
    const quote: Quote = await client.getBestQuote({
      sourceChain: from.networkId,
      sourceToken: from.token,
      destChain: to.networkId,
      destToken: to.token,
      amount,
      slippageBps: 50,
    });

    report({ step: "intent" });
    const intent = await createIntent(client, quote, from, to);
    report({ intentId: intent.intentId, status: "Initiated" });

    report({ step: "prepare" });
    await from.wallet.prepare({ token: from.token, amountLots: quote.sourceAmountLots });

    report({ step: "sign" });
    const signed = await from.wallet.approve({ intent, quote, recipient: to.wallet.address });

    report({ step: "submit", summary: signed.summary });
    await client.submitApproval({ intentId: intent.intentId, approval: signed.approval });

    report({ step: "wait" });
    const final = await client.waitForIntent({
      intentId: intent.intentId,
      intervalMs: 250,
      timeoutMs: 120_000,
      onStatusChange: (s) => report({ status: s.rawStatus }),
    });
    report({ step: "end", status: final.rawStatus, done: true });
  } catch (error) {
    report({ done: true, error: `failed at ${state.step}: ${describeError(error)}` });
  }
  return { ...state };
}

/** Step "fund": gives the source wallet gas (where it needs some) and twice the amount of the source token. */
async function fundSource(dev: DevApi, from: RouteEnd, amount: string): Promise<void> {
  if (from.wallet.gasFunding)
    await dev.faucet({
      networkId: from.networkId,
      address: from.wallet.address,
      ...from.wallet.gasFunding,
    });
  await dev.faucet({
    networkId: from.networkId,
    address: from.wallet.address,
    token: from.token,
    amount: double(amount),
  });
}

/** Step "intent": creates the intent of a quote, from the source wallet to the destination wallet. */
function createIntent(client: SwapIntentClient, quote: Quote, from: RouteEnd, to: RouteEnd): Promise<Intent> {
  return client.createIntent({
    quote,
    refundAddress: from.wallet.address,
    userSourceAddress: from.wallet.address,
    userDestinationAddress: to.wallet.address,
    ...(from.wallet.publicKeyHex ? { userSourcePublicKey: from.wallet.publicKeyHex } : {}),
    sourceNetworkType: from.networkType,
  });
}

/** An error in words for the page: the client's code and short message, or the error's name and message. */
function describeError(error: unknown): string {
  return isSwapIntentError(error)
    ? `${error.code}: ${error.shortMessage}`
    : error instanceof Error
      ? `${error.name}: ${error.message}`
      : String(error);
}

/** Twice a decimal amount, exactly (the page funds the source wallet with twice what it swaps). */
function double(amount: string): string {
  const decimals = amount.split(".")[1]?.length ?? 0;
  return formatLots({ value: parseLots({ value: amount, decimals }) * 2n, decimals });
}
