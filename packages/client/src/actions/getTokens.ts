import type { BaseClient, CallOptions } from "../client/types.js";
import type { RequestError } from "../errors/codes.js";
import { appendPageQuery } from "../internal/appendPageQuery.js";
import { assertInteger } from "../internal/assertInput.js";
import { invalidInput } from "../internal/invalidInput.js";
import { parseTokensPage } from "../internal/wire.js";
import type { NetworkId, Page, TokenInfo } from "../types.js";

/** Filters of the token listing. */
export interface TokenFilter {
  /** Search text matched against symbol, name or contract address. */
  q?: string | undefined;
  /** Only tokens of this network. */
  networkId?: NetworkId | undefined;
}

/** Parameters of {@link getTokens}. */
export interface GetTokensParameters extends TokenFilter, CallOptions {
  /** Page size, 1..100 (the service's default is 20). */
  limit?: number | undefined;
  /** Tokens to skip, >= 0. */
  offset?: number | undefined;
}

/** What {@link getTokens} returns (awaited). */
export type GetTokensReturnType = Page<TokenInfo>;

/** The errors {@link getTokens} can throw. */
export type GetTokensErrorType = RequestError;

/**
 * Reads one page of tokens (`GET /affiliate/v1/tokens`). See `iterateTokens` for all pages.
 *
 * @example
 * const page = await getTokens(client, { networkId: 1, q: "usdc", limit: 10 });
 */
export async function getTokens(
  client: BaseClient,
  parameters: GetTokensParameters = {},
): Promise<GetTokensReturnType> {
  const query: [string, string][] = [];
  appendPageQuery(query, parameters);
  if (parameters.q !== undefined) {
    if (typeof parameters.q !== "string") throw invalidInput("q", "must be a string", parameters.q);
    query.push(["q", parameters.q]);
  }
  if (parameters.networkId !== undefined) {
    assertInteger(parameters.networkId, "networkId");
    query.push(["network_id", String(parameters.networkId)]);
  }
  return client.request({
    method: "GET",
    path: "/affiliate/v1/tokens",
    query,
    idempotent: true,
    parse: parseTokensPage,
    signal: parameters.signal,
    timeoutMs: parameters.timeoutMs,
  });
}
