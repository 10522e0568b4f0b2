import {
  type CreateIntentParameters,
  type CreateIntentReturnType,
  createIntent,
} from "../actions/createIntent.js";
import {
  type GetBestQuoteParameters,
  type GetBestQuoteReturnType,
  getBestQuote,
} from "../actions/getBestQuote.js";
import {
  type GetIntentStatusParameters,
  type GetIntentStatusReturnType,
  getIntentStatus,
} from "../actions/getIntentStatus.js";
import {
  type GetNetworksParameters,
  type GetNetworksReturnType,
  getNetworks,
} from "../actions/getNetworks.js";
import {
  type GetSwapHistoryParameters,
  type GetSwapHistoryReturnType,
  getSwapHistory,
} from "../actions/getSwapHistory.js";
import { type GetTokensParameters, type GetTokensReturnType, getTokens } from "../actions/getTokens.js";
import {
  type IterateSwapHistoryParameters,
  type IterateSwapHistoryReturnType,
  iterateSwapHistory,
} from "../actions/iterateSwapHistory.js";
import {
  type IterateTokensParameters,
  type IterateTokensReturnType,
  iterateTokens,
} from "../actions/iterateTokens.js";
import {
  type SubmitApprovalParameters,
  type SubmitApprovalReturnType,
  submitApproval,
} from "../actions/submitApproval.js";
import {
  type WaitForIntentParameters,
  type WaitForIntentReturnType,
  waitForIntent,
} from "../actions/waitForIntent.js";
import {
  type WatchIntentParameters,
  type WatchIntentReturnType,
  watchIntent,
} from "../actions/watchIntent.js";
import type { ClientError } from "../errors/codes.js";
import { createBaseClient } from "./createBaseClient.js";
import type { BaseClient, ClientOptions } from "./types.js";

/** A client with every action bound. Each method is the standalone action of the same name applied to this client. */
export interface SwapIntentClient extends BaseClient {
  /** `POST /affiliate/v1/quotes/best`. See `getBestQuote`. */
  getBestQuote(parameters: GetBestQuoteParameters): Promise<GetBestQuoteReturnType>;
  /** `POST /affiliate/v1/intents`, never retried. See `createIntent`. */
  createIntent(parameters: CreateIntentParameters): Promise<CreateIntentReturnType>;
  /** `GET /affiliate/v1/intents/{id}/status`. See `getIntentStatus`. */
  getIntentStatus(parameters: GetIntentStatusParameters): Promise<GetIntentStatusReturnType>;
  /** `GET /affiliate/v1/networks`. See `getNetworks`. */
  getNetworks(parameters?: GetNetworksParameters): Promise<GetNetworksReturnType>;
  /** `GET /affiliate/v1/tokens`, one page. See `getTokens`. */
  getTokens(parameters?: GetTokensParameters): Promise<GetTokensReturnType>;
  /** Every token across pages. See `iterateTokens`. */
  iterateTokens(parameters?: IterateTokensParameters): IterateTokensReturnType;
  /** `GET /affiliate/v1/swaps/history`, one page. See `getSwapHistory`. */
  getSwapHistory(parameters: GetSwapHistoryParameters): Promise<GetSwapHistoryReturnType>;
  /** Every history item across pages. See `iterateSwapHistory`. */
  iterateSwapHistory(parameters: IterateSwapHistoryParameters): IterateSwapHistoryReturnType;
  /** `POST /affiliate/v1/intents/{id}/approvals`, never retried. See `submitApproval`. */
  submitApproval(parameters: SubmitApprovalParameters): Promise<SubmitApprovalReturnType>;
  /** Polls until a terminal status. See `waitForIntent`. */
  waitForIntent(parameters: WaitForIntentParameters): Promise<WaitForIntentReturnType>;
  /** Yields each status change. See `watchIntent`. */
  watchIntent(parameters: WatchIntentParameters): WatchIntentReturnType;
}

/** Parameters of {@link createSwapIntentClient}: the client options. */
export type CreateSwapIntentClientParameters = ClientOptions;

/** What {@link createSwapIntentClient} returns. */
export type CreateSwapIntentClientReturnType = SwapIntentClient;

/** The errors {@link createSwapIntentClient} can throw. */
export type CreateSwapIntentClientErrorType = ClientError<"INVALID_OPTIONS">;

/**
 * Creates a client for the swap intent service with every endpoint as a method. To ship less code, use
 * `createBaseClient` with the standalone actions instead.
 *
 * @example
 * const client = createSwapIntentClient({ baseUrl: "http://127.0.0.1:8787", apiKey: process.env.SWAPINTENT_API_KEY });
 * const quote = await client.getBestQuote({ sourceChain: 1, sourceToken, destChain: 5, destToken, amount: "1.5", slippageBps: 50 });
 * @throws `INVALID_OPTIONS` for unusable options (see `createBaseClient`).
 */
export function createSwapIntentClient(
  parameters: CreateSwapIntentClientParameters,
): CreateSwapIntentClientReturnType {
  const base = createBaseClient(parameters);
  return {
    ...base,
    getBestQuote: (parameters) => getBestQuote(base, parameters),
    createIntent: (parameters) => createIntent(base, parameters),
    getIntentStatus: (parameters) => getIntentStatus(base, parameters),
    getNetworks: (parameters) => getNetworks(base, parameters),
    getTokens: (parameters) => getTokens(base, parameters),
    iterateTokens: (parameters) => iterateTokens(base, parameters),
    getSwapHistory: (parameters) => getSwapHistory(base, parameters),
    iterateSwapHistory: (parameters) => iterateSwapHistory(base, parameters),
    submitApproval: (parameters) => submitApproval(base, parameters),
    waitForIntent: (parameters) => waitForIntent(base, parameters),
    watchIntent: (parameters) => watchIntent(base, parameters),
  };
}

/** @deprecated Use CreateSwapIntentClientParameters. */
export type CreateClientParameters = CreateSwapIntentClientParameters;
/** @deprecated Use CreateSwapIntentClientReturnType. */
export type CreateClientReturnType = CreateSwapIntentClientReturnType;
/** @deprecated Use CreateSwapIntentClientErrorType. */
export type CreateClientErrorType = CreateSwapIntentClientErrorType;
/**
 * @deprecated Use createSwapIntentClient (same function; this name collides with viem's `createClient`).
 *
 * @example
 * const client = createClient({ baseUrl: "http://127.0.0.1:8787" }); // prefer createSwapIntentClient
 */
export const createClient: typeof createSwapIntentClient = createSwapIntentClient;
