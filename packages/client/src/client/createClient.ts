import { type CreateIntentParams, createIntent } from "../actions/createIntent.js";
import { type GetBestQuoteParams, getBestQuote } from "../actions/getBestQuote.js";
import { type GetIntentStatusParams, getIntentStatus } from "../actions/getIntentStatus.js";
import { getNetworks } from "../actions/getNetworks.js";
import { type GetSwapHistoryParams, getSwapHistory } from "../actions/getSwapHistory.js";
import { type GetTokensParams, getTokens } from "../actions/getTokens.js";
import { type IterateSwapHistoryParams, iterateSwapHistory } from "../actions/iterateSwapHistory.js";
import { type IterateTokensParams, iterateTokens } from "../actions/iterateTokens.js";
import { type SubmitApprovalParams, submitApproval } from "../actions/submitApproval.js";
import { type WaitForIntentParams, waitForIntent } from "../actions/waitForIntent.js";
import { type WatchIntentParams, watchIntent } from "../actions/watchIntent.js";
import type { Intent, Network, Page, Quote, SwapHistoryItem, SwapStatus, Token } from "../types.js";
import { createBaseClient } from "./createBaseClient.js";
import type { BaseClient, CallOptions, ClientOptions } from "./types.js";

/** A client with every action bound. Each method is the standalone action of the same name applied to this client. */
export interface SwapIntentClient extends BaseClient {
  /** `POST /affiliate/v1/quotes/best`. See `getBestQuote`. */
  getBestQuote(params: GetBestQuoteParams): Promise<Quote>;
  /** `POST /affiliate/v1/intents`, never retried. See `createIntent`. */
  createIntent(params: CreateIntentParams): Promise<Intent>;
  /** `GET /affiliate/v1/intents/{id}/status`. See `getIntentStatus`. */
  getIntentStatus(params: GetIntentStatusParams): Promise<SwapStatus>;
  /** `GET /affiliate/v1/networks`. See `getNetworks`. */
  getNetworks(params?: CallOptions): Promise<Network[]>;
  /** `GET /affiliate/v1/tokens`, one page. See `getTokens`. */
  getTokens(params?: GetTokensParams): Promise<Page<Token>>;
  /** Every token across pages. See `iterateTokens`. */
  iterateTokens(params?: IterateTokensParams): AsyncGenerator<Token>;
  /** `GET /affiliate/v1/swaps/history`, one page. See `getSwapHistory`. */
  getSwapHistory(params: GetSwapHistoryParams): Promise<Page<SwapHistoryItem>>;
  /** Every history item across pages. See `iterateSwapHistory`. */
  iterateSwapHistory(params: IterateSwapHistoryParams): AsyncGenerator<SwapHistoryItem>;
  /** `POST /affiliate/v1/intents/{id}/approvals`, never retried. See `submitApproval`. */
  submitApproval(params: SubmitApprovalParams): Promise<SwapStatus | null>;
  /** Polls until a terminal status. See `waitForIntent`. */
  waitForIntent(params: WaitForIntentParams): Promise<SwapStatus>;
  /** Yields each status change. See `watchIntent`. */
  watchIntent(params: WatchIntentParams): AsyncGenerator<SwapStatus>;
}

/**
 * Creates a client for the swap intent service with every endpoint as a method.
 *
 * @example
 * const client = createClient({ baseUrl: "http://127.0.0.1:8787", apiKey: process.env.SWAPINTENT_API_KEY });
 * const quote = await client.getBestQuote({ sourceChain: 1, sourceToken, destChain: 5, destToken, amount: "1.5", slippageBps: 50 });
 *
 * To ship less code, use `createBaseClient` with the standalone actions instead.
 * @throws `INVALID_OPTIONS` for unusable options (see `createBaseClient`).
 */
export function createClient(options: ClientOptions): SwapIntentClient {
  const base = createBaseClient(options);
  return {
    ...base,
    getBestQuote: (params) => getBestQuote(base, params),
    createIntent: (params) => createIntent(base, params),
    getIntentStatus: (params) => getIntentStatus(base, params),
    getNetworks: (params) => getNetworks(base, params),
    getTokens: (params) => getTokens(base, params),
    iterateTokens: (params) => iterateTokens(base, params),
    getSwapHistory: (params) => getSwapHistory(base, params),
    iterateSwapHistory: (params) => iterateSwapHistory(base, params),
    submitApproval: (params) => submitApproval(base, params),
    waitForIntent: (params) => waitForIntent(base, params),
    watchIntent: (params) => watchIntent(base, params),
  };
}
