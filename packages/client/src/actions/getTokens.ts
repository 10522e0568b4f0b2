import type { BaseClient, CallOptions } from "../client/types.js";
import { assertInteger } from "../internal/assertInput.js";
import { invalidInput } from "../internal/invalidInput.js";
import { parseTokensPage } from "../internal/wire.js";
import type { NetworkId, Page, Token } from "../types.js";

/** Filters of the token listing. */
export interface TokenFilter {
  /** Search text matched against symbol, name or contract address. */
  q?: string | undefined;
  /** Only tokens of this network. */
  networkId?: NetworkId | undefined;
}

/** Parameters of {@link getTokens}. */
export interface GetTokensParams extends TokenFilter, CallOptions {
  /** Page size, 1..100 (the service's default is 20). */
  limit?: number | undefined;
  /** Tokens to skip, >= 0. */
  offset?: number | undefined;
}

/**
 * Reads one page of tokens (`GET /affiliate/v1/tokens`). See `iterateTokens` for all pages.
 *
 * @example
 * const page = await getTokens(client, { networkId: 1, q: "usdc", limit: 10 });
 */
export async function getTokens(client: BaseClient, params: GetTokensParams = {}): Promise<Page<Token>> {
  const query: [string, string][] = [];
  if (params.limit !== undefined) {
    assertInteger(params.limit, "limit", 1, 100);
    query.push(["limit", String(params.limit)]);
  }
  if (params.offset !== undefined) {
    assertInteger(params.offset, "offset", 0, Number.MAX_SAFE_INTEGER);
    query.push(["offset", String(params.offset)]);
  }
  if (params.q !== undefined) {
    if (typeof params.q !== "string") throw invalidInput("q", "must be a string", params.q);
    query.push(["q", params.q]);
  }
  if (params.networkId !== undefined) {
    assertInteger(params.networkId, "networkId", 0, Number.MAX_SAFE_INTEGER);
    query.push(["network_id", String(params.networkId)]);
  }
  return client.request({
    method: "GET",
    path: "/affiliate/v1/tokens",
    query,
    idempotent: true,
    parse: parseTokensPage,
    signal: params.signal,
    timeoutMs: params.timeoutMs,
  });
}
