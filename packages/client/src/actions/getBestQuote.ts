import type { BaseClient, CallOptions } from "../client/types.js";
import type { RequestError } from "../errors/codes.js";
import {
  assertInteger,
  assertNonEmptyString,
  assertPattern,
  assertUuid,
  normalizeAmount,
  normalizeSlippageBps,
} from "../internal/assertInput.js";
import { JsonNumberText } from "../internal/jsonNumberText.js";
import { parseQuote } from "../internal/wire.js";
import type { NetworkId, Quote } from "../types.js";

/** Parameters of {@link getBestQuote}. */
export interface GetBestQuoteParameters extends CallOptions {
  sourceChain: NetworkId;
  sourceToken: string;
  destChain: NetworkId;
  destToken: string;
  /**
   * Human-unit amount (not lots), > 0. Prefer a decimal string (`"1.25"`): it is written into the JSON body
   * exactly as given (leading and trailing zeros trimmed), never through floating point.
   */
  amount: string | number;
  /** Slippage in basis points, an integer 0..10000; sent as a string. */
  slippageBps: number | bigint | string;
  /** Default `"standard"`, the one value the spec names. */
  swapType?: string | undefined;
  /** Optional retail user UUID for attribution. */
  retailUserId?: string | undefined;
}

/** What {@link getBestQuote} returns (awaited). */
export type GetBestQuoteReturnType = Quote;

/** The errors {@link getBestQuote} can throw. */
export type GetBestQuoteErrorType = RequestError;

/**
 * Asks for the best quote (`POST /affiliate/v1/quotes/best`). Idempotent: retried on transient failures.
 * Inputs are checked before any request (`INVALID_INPUT` naming the field).
 *
 * @example
 * const quote = await getBestQuote(client, { sourceChain: 1, sourceToken: "0x…", destChain: 5,
 *   destToken: "So111…", amount: "1.5", slippageBps: 50 });
 */
export async function getBestQuote(
  client: BaseClient,
  parameters: GetBestQuoteParameters,
): Promise<GetBestQuoteReturnType> {
  assertInteger(parameters.sourceChain, "sourceChain");
  assertNonEmptyString(parameters.sourceToken, "sourceToken");
  assertInteger(parameters.destChain, "destChain");
  assertNonEmptyString(parameters.destToken, "destToken");
  const amount = normalizeAmount(parameters.amount, "amount");
  const slippageBps = normalizeSlippageBps(parameters.slippageBps, "slippageBps");
  const swapType = parameters.swapType ?? "standard";
  assertPattern(swapType, /^[a-z][a-z0-9_]*$/, "swapType", "must be a swap type such as `standard`");
  if (parameters.retailUserId !== undefined) assertUuid(parameters.retailUserId, "retailUserId");
  return client.request({
    method: "POST",
    path: "/affiliate/v1/quotes/best",
    body: {
      source_chain: parameters.sourceChain,
      source_token: parameters.sourceToken,
      dest_chain: parameters.destChain,
      dest_token: parameters.destToken,
      amount: new JsonNumberText(amount),
      slippage_bps: slippageBps,
      swap_type: swapType,
      retail_user_id: parameters.retailUserId,
    },
    idempotent: true,
    parse: parseQuote,
    signal: parameters.signal,
    timeoutMs: parameters.timeoutMs,
  });
}
