import {
  type Approval,
  formatLots,
  type Intent,
  isQuoteExpired,
  isSwapIntentError,
  type Network,
  parseLots,
  type Quote,
  type SwapIntentClient,
  type TokenInfo,
} from "@swapintent/client";
import type { DevApi } from "@swapintent/testing/devApi";
import { createRouteResult, type ProgressEvent, type RouteResult } from "./report.js";
import type { DemoWallet } from "./wallets/types.js";

/** One end of a route: a network, a token on it, and a wallet there. */
export interface RouteEnd {
  network: Network;
  token: TokenInfo;
  wallet: DemoWallet;
}

/** A route to run. */
export interface Route {
  /** Display name, for example `EVM -> Solana`. */
  name: string;
  from: RouteEnd;
  to: RouteEnd;
  /** Human-unit amount as a decimal string. */
  amount: string;
  slippageBps: number;
}

/** Options of {@link runRoute}. */
export interface RunRouteOptions {
  client: SwapIntentClient;
  route: Route;
  /** Dev endpoints of a sandbox (fund the source wallet, read the received amount); null on a real deployment. */
  dev: DevApi | null;
  dryRun: boolean;
  onProgress: (event: ProgressEvent) => void;
  /** How long to wait for a terminal status. */
  timeoutMs?: number;
  /** Poll interval of the status. */
  intervalMs?: number;
  /** How many times an expired quote is refreshed before giving up. */
  maxQuoteRefreshes?: number;
  /** Test hook: runs between getting a quote and creating the intent. */
  afterQuote?: (quote: Quote) => Promise<void>;
}

const quoteExpiredCodes = new Set(["QUOTE_EXPIRED"]);

/** The state one run of {@link runRoute} shares between its steps. */
interface RouteRun {
  options: RunRouteOptions;
  result: RouteResult;
  progress: (event: Omit<ProgressEvent, "route" | "elapsedMs">) => void;
  /** The step running now, named in the result when it fails. */
  step: string;
}

/**
 * Runs one route from quote to a terminal status: funds the source wallet (sandbox only), gets a quote, creates
 * the intent (asking for a fresh quote when the quote expired first), gives Permit2 its allowance where needed,
 * verifies and signs the approval with the source network's signer package, submits it and follows the status.
 * Never throws: failures are reported in the result with their error code.
 */
export async function runRoute(options: RunRouteOptions): Promise<RouteResult> {
  const { route, onProgress } = options;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const run: RouteRun = {
    options,
    result: createRouteResult({
      route: route.name,
      from: `${route.from.network.name}:${route.from.token.symbol}`,
      to: `${route.to.network.name}:${route.to.token.symbol}`,
      amount: route.amount,
      finalStatus: "NotStarted",
      error: null,
    }),
    progress: (event) => onProgress({ route: route.name, elapsedMs: elapsed(), ...event }),
    step: "fund",
  };
  try {
    await fundSource(run);
    const { quote, intent } = await quoteAndCreateIntent(run);
    const approval = await prepareAndSign(run, quote, intent);
    if (approval === null) {
      run.result.ok = true;
      run.result.finalStatus = "DryRun";
      return run.result;
    }
    run.step = "submit";
    const afterSubmit = await options.client.submitApproval({ intentId: intent.intentId, approval });
    run.progress({ step: "approval submitted", status: afterSubmit?.rawStatus });
    await waitForTerminal(run, quote, intent);
    return run.result;
  } catch (error) {
    recordFailure(run, error);
    return run.result;
  } finally {
    run.result.elapsedMs = elapsed();
  }
}

/** Step "fund": gives the source wallet gas and twice the amount of the source token (sandbox only). */
async function fundSource(run: RouteRun): Promise<void> {
  const { dev, route } = run.options;
  if (!dev) return;
  const { from } = route;
  if (from.wallet.gasFunding) {
    await dev.faucet({
      networkId: from.network.id,
      address: from.wallet.address,
      ...from.wallet.gasFunding,
    });
  }
  await dev.faucet({
    networkId: from.network.id,
    address: from.wallet.address,
    token: from.token.contractAddress,
    amount: double(route.amount),
  });
  run.progress({ step: `funded ${from.wallet.address} with ${double(route.amount)} ${from.token.symbol}` });
}

/** Steps "quote" and "intent": gets a quote and creates the intent, asking for a fresh quote when it expired first. */
async function quoteAndCreateIntent(run: RouteRun): Promise<{ quote: Quote; intent: Intent }> {
  const { options, result } = run;
  for (;;) {
    run.step = "quote";
    const quote = await getQuote(run);
    await options.afterQuote?.(quote);
    run.step = "intent";
    try {
      const intent = await createIntent(run, quote);
      result.intentId = intent.intentId;
      result.approvalMechanism = intent.approvalMechanism;
      run.progress({ step: `intent ${intent.intentId} created (${intent.approvalMechanism})` });
      return { quote, intent };
    } catch (error) {
      if (!isQuoteExpiredError(error) || result.quoteRefreshes >= (options.maxQuoteRefreshes ?? 3))
        throw error;
      result.quoteRefreshes += 1;
      run.progress({ step: "quote expired before use: asking for a fresh one" });
    }
  }
}

/** Gets the best quote of the route and records its amounts in the result. */
async function getQuote(run: RouteRun): Promise<Quote> {
  const { client, route } = run.options;
  const { from, to } = route;
  const quote = await client.getBestQuote({
    sourceChain: from.network.id,
    sourceToken: from.token.contractAddress,
    destChain: to.network.id,
    destToken: to.token.contractAddress,
    amount: route.amount,
    slippageBps: route.slippageBps,
  });
  run.result.sourceAmountLots = quote.sourceAmountLots.toString();
  run.result.minDestAmountLots = quote.minDestAmountLots.toString();
  run.result.intermediateToken = quote.intermediateToken;
  run.progress({
    step: `quote ${quote.id}: ${route.amount} ${from.token.symbol} -> at least ${formatLots({ value: quote.minDestAmountLots, decimals: quote.destAmountDecimals })} ${to.token.symbol}${
      quote.intermediateToken ? ` (via intermediate ${quote.intermediateToken})` : ""
    }`,
  });
  return quote;
}

/** Creates the intent of a quote; a quote that expired locally is refused with code `QUOTE_EXPIRED` first. */
async function createIntent(run: RouteRun, quote: Quote): Promise<Intent> {
  const { from, to } = run.options.route;
  if (isQuoteExpired({ quote })) throw Object.assign(new Error("expired locally"), { code: "QUOTE_EXPIRED" });
  return run.options.client.createIntent({
    quote,
    refundAddress: from.wallet.address,
    userSourceAddress: from.wallet.address,
    userDestinationAddress: to.wallet.address,
    ...(from.wallet.publicKeyHex ? { userSourcePublicKey: from.wallet.publicKeyHex } : {}),
    sourceNetworkType: from.network.type,
  });
}

/** Whether an error says the quote expired, by its own code or by the service's error type. */
function isQuoteExpiredError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  const serverType = isSwapIntentError(error) ? error.details.serverType : undefined;
  return quoteExpiredCodes.has(String(code)) || quoteExpiredCodes.has(String(serverType));
}

/**
 * Steps "prepare" and "sign": gives Permit2 its allowance where needed, then verifies and signs the approval.
 * Returns the approval to submit, or null on a dry run (nothing to submit).
 */
async function prepareAndSign(run: RouteRun, quote: Quote, intent: Intent): Promise<Approval | null> {
  const { route, dryRun } = run.options;
  const { from, to } = route;
  run.step = "prepare";
  const prepareTx = await from.wallet.prepare({
    token: from.token.contractAddress,
    amountLots: quote.sourceAmountLots,
  });
  if (prepareTx) run.progress({ step: "Permit2 allowance given", txs: { allowance_tx: prepareTx } });

  run.step = "sign";
  const signed = await from.wallet.approve({ intent, quote, recipient: to.wallet.address, dryRun });
  run.result.summary = signed.summary;
  run.progress({ step: dryRun ? "verified; would sign:" : "verified and signed:", detail: signed.summary });
  return dryRun ? null : signed.approval;
}

/** Step "wait": follows the intent's status to a terminal one and records it (and the amount received, sandbox only). */
async function waitForTerminal(run: RouteRun, quote: Quote, intent: Intent): Promise<void> {
  const { options, result } = run;
  const { client, dev, route } = options;
  run.step = "wait";
  const final = await client.waitForIntent({
    intentId: intent.intentId,
    intervalMs: options.intervalMs ?? 200,
    timeoutMs: options.timeoutMs ?? 120_000,
    onStatusChange: (status) => {
      result.statuses.push(status.rawStatus);
      const m = status.swapMetadata;
      result.txs = { user_deposit_tx: m.userDepositTx, fulfill_tx: m.fulfillTx, swap_tx: m.swapTx };
      run.progress({ step: "status", status: status.rawStatus, txs: result.txs });
    },
  });
  result.finalStatus = final.rawStatus;
  result.ok = final.status === "Fulfilled";
  if (!result.ok) {
    result.error = {
      code: `ROUTE_${final.status.toUpperCase()}`,
      message:
        final.status === "Refunded"
          ? "the resolver could not deliver; the deposit was refunded to the user"
          : `the intent ended ${final.rawStatus}`,
    };
  } else if (dev) {
    const received = await dev.balance({
      networkId: route.to.network.id,
      address: route.to.wallet.address,
      token: route.to.token.contractAddress,
    });
    run.progress({
      step: `received ${formatLots({ value: received, decimals: quote.destAmountDecimals })} ${route.to.token.symbol}`,
    });
  }
}

/** Records a failure in the result: the step it happened at, its code and its message. */
function recordFailure(run: RouteRun, error: unknown): void {
  run.result.finalStatus = `failed at ${run.step}`;
  const code = isSwapIntentError(error) ? error.code : ((error as { code?: string }).code ?? "ERROR");
  const message = isSwapIntentError(error)
    ? error.shortMessage
    : error instanceof Error
      ? error.message
      : String(error);
  run.result.error = { code: String(code), message };
  run.progress({ step: `FAILED at ${run.step}: ${code}: ${message}` });
}

/** Twice a decimal amount, exactly (the demo funds the source wallet with twice what it swaps). */
function double(amount: string): string {
  const decimals = amount.split(".")[1]?.length ?? 0;
  return formatLots({ value: parseLots({ value: amount, decimals }) * 2n, decimals });
}
