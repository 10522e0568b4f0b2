import {
  formatUnits,
  type Intent,
  isQuoteExpired,
  isSwapIntentError,
  type Network,
  parseUnits,
  type Quote,
  type SwapIntentClient,
  type Token,
} from "@swapintent/client";
import type { DevApi } from "@swapintent/testing/devApi";
import { createRouteResult, type ProgressEvent, type RouteResult } from "./report.js";
import type { DemoWallet } from "./wallets/types.js";

/** One end of a route: a network, a token on it, and a wallet there. */
export interface RouteEnd {
  network: Network;
  token: Token;
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

/**
 * Runs one route from quote to a terminal status: funds the source wallet (sandbox only), gets a quote, creates
 * the intent (asking for a fresh quote when the quote expired first), gives Permit2 its allowance where needed,
 * verifies and signs the approval with the source network's signer package, submits it and follows the status.
 * Never throws: failures are reported in the result with their error code.
 */
export async function runRoute(options: RunRouteOptions): Promise<RouteResult> {
  const { client, route, dev, onProgress } = options;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const progress = (event: Omit<ProgressEvent, "route" | "elapsedMs">) =>
    onProgress({ route: route.name, elapsedMs: elapsed(), ...event });
  const result = createRouteResult({
    route: route.name,
    from: `${route.from.network.name}:${route.from.token.symbol}`,
    to: `${route.to.network.name}:${route.to.token.symbol}`,
    amount: route.amount,
    finalStatus: "NotStarted",
    error: null,
  });
  let step = "fund";
  try {
    const { from, to } = route;
    if (dev) {
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
      progress({ step: `funded ${from.wallet.address} with ${double(route.amount)} ${from.token.symbol}` });
    }

    step = "quote";
    let quote: Quote;
    let intent: Intent;
    for (;;) {
      quote = await client.getBestQuote({
        sourceChain: from.network.id,
        sourceToken: from.token.contractAddress,
        destChain: to.network.id,
        destToken: to.token.contractAddress,
        amount: route.amount,
        slippageBps: route.slippageBps,
      });
      result.sourceAmountLots = quote.sourceAmountLots.toString();
      result.minDestAmountLots = quote.minDestAmountLots.toString();
      result.intermediateToken = quote.intermediateToken;
      progress({
        step: `quote ${quote.id}: ${route.amount} ${from.token.symbol} -> at least ${formatLots(quote.minDestAmountLots, quote.destAmountDecimals)} ${to.token.symbol}${
          quote.intermediateToken ? ` (via intermediate ${quote.intermediateToken})` : ""
        }`,
      });
      await options.afterQuote?.(quote);
      step = "intent";
      try {
        if (isQuoteExpired({ quote }))
          throw Object.assign(new Error("expired locally"), { code: "QUOTE_EXPIRED" });
        intent = await client.createIntent({
          quote,
          refundAddress: from.wallet.address,
          userSourceAddress: from.wallet.address,
          userDestinationAddress: to.wallet.address,
          ...(from.wallet.publicKeyHex ? { userSourcePublicKey: from.wallet.publicKeyHex } : {}),
          sourceNetworkType: from.network.type,
        });
        break;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        const serverType = isSwapIntentError(error) ? error.details.serverType : undefined;
        const expired = quoteExpiredCodes.has(String(code)) || quoteExpiredCodes.has(String(serverType));
        if (!expired || result.quoteRefreshes >= (options.maxQuoteRefreshes ?? 3)) throw error;
        result.quoteRefreshes += 1;
        progress({ step: "quote expired before use: asking for a fresh one" });
        step = "quote";
      }
    }
    result.intentId = intent.intentId;
    result.approvalMechanism = intent.approvalMechanism;
    progress({ step: `intent ${intent.intentId} created (${intent.approvalMechanism})` });

    step = "prepare";
    const prepareTx = await from.wallet.prepare({
      token: from.token.contractAddress,
      amountLots: quote.sourceAmountLots,
    });
    if (prepareTx) progress({ step: "Permit2 allowance given", txs: { allowance_tx: prepareTx } });

    step = "sign";
    const signed = await from.wallet.approve({
      intent,
      quote,
      recipient: to.wallet.address,
      dryRun: options.dryRun,
    });
    result.summary = signed.summary;
    progress({
      step: options.dryRun ? "verified; would sign:" : "verified and signed:",
      detail: signed.summary,
    });
    if (options.dryRun || signed.approval === null) {
      result.ok = true;
      result.finalStatus = "DryRun";
      return result;
    }

    step = "submit";
    const afterSubmit = await client.submitApproval({ intentId: intent.intentId, approval: signed.approval });
    progress({ step: "approval submitted", status: afterSubmit?.rawStatus });

    step = "wait";
    const final = await client.waitForIntent({
      intentId: intent.intentId,
      intervalMs: options.intervalMs ?? 200,
      timeoutMs: options.timeoutMs ?? 120_000,
      onStatusChange: (status) => {
        result.statuses.push(status.rawStatus);
        const m = status.swapMetadata;
        result.txs = { user_deposit_tx: m.userDepositTx, fulfill_tx: m.fulfillTx, swap_tx: m.swapTx };
        progress({ step: "status", status: status.rawStatus, txs: result.txs });
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
        networkId: to.network.id,
        address: to.wallet.address,
        token: to.token.contractAddress,
      });
      progress({ step: `received ${formatLots(received, quote.destAmountDecimals)} ${to.token.symbol}` });
    }
    return result;
  } catch (error) {
    result.finalStatus = `failed at ${step}`;
    const code = isSwapIntentError(error) ? error.code : ((error as { code?: string }).code ?? "ERROR");
    const message = isSwapIntentError(error)
      ? error.shortMessage
      : error instanceof Error
        ? error.message
        : String(error);
    result.error = { code: String(code), message };
    progress({ step: `FAILED at ${step}: ${code}: ${message}` });
    return result;
  } finally {
    result.elapsedMs = elapsed();
  }
}

/** Twice a decimal amount, exactly (the demo funds the source wallet with twice what it swaps). */
function double(amount: string): string {
  const decimals = amount.split(".")[1]?.length ?? 0;
  return formatUnits({ value: parseUnits({ value: amount, decimals }) * 2n, decimals });
}

function formatLots(lots: bigint, decimals: number): string {
  return formatUnits({ value: lots, decimals });
}
