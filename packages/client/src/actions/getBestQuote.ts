import type { BaseClient, CallOptions } from "../client/types.js";
import {
  assertInteger,
  assertNonEmptyString,
  assertUuid,
  normalizeAmount,
  normalizeSlippageBps,
} from "../internal/assertInput.js";
import { invalidInput } from "../internal/invalidInput.js";
import { JsonNumberText } from "../internal/jsonNumberText.js";
import { parseQuote } from "../internal/wire.js";
import type { NetworkId, Quote } from "../types.js";

/** Parameters of {@link getBestQuote}. */
export interface GetBestQuoteParams extends CallOptions {
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

/**
 * Asks for the best quote (`POST /affiliate/v1/quotes/best`). Idempotent: retried on transient failures.
 * Inputs are checked before any request (`INVALID_INPUT` naming the field).
 *
 * @example
 * const quote = await getBestQuote(client, { sourceChain: 1, sourceToken: "0x…", destChain: 5,
 *   destToken: "So111…", amount: "1.5", slippageBps: 50 });
 */
export async function getBestQuote(client: BaseClient, params: GetBestQuoteParams): Promise<Quote> {
  assertInteger(params.sourceChain, "sourceChain", 0, Number.MAX_SAFE_INTEGER);
  assertNonEmptyString(params.sourceToken, "sourceToken");
  assertInteger(params.destChain, "destChain", 0, Number.MAX_SAFE_INTEGER);
  assertNonEmptyString(params.destToken, "destToken");
  const amount = normalizeAmount(params.amount, "amount");
  const slippageBps = normalizeSlippageBps(params.slippageBps, "slippageBps");
  const swapType = params.swapType ?? "standard";
  if (typeof swapType !== "string" || !/^[a-z][a-z0-9_]*$/.test(swapType)) {
    throw invalidInput("swapType", "must be a swap type such as `standard`", swapType);
  }
  if (params.retailUserId !== undefined) assertUuid(params.retailUserId, "retailUserId");
  return client.request({
    method: "POST",
    path: "/affiliate/v1/quotes/best",
    body: {
      source_chain: params.sourceChain,
      source_token: params.sourceToken,
      dest_chain: params.destChain,
      dest_token: params.destToken,
      amount: new JsonNumberText(amount),
      slippage_bps: slippageBps,
      swap_type: swapType,
      retail_user_id: params.retailUserId,
    },
    idempotent: true,
    parse: parseQuote,
    signal: params.signal,
    timeoutMs: params.timeoutMs,
  });
}
