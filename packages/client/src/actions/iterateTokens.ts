import type { BaseClient, CallOptions } from "../client/types.js";
import type { RequestError } from "../errors/codes.js";
import { iteratePages } from "../internal/iteratePages.js";
import type { TokenInfo } from "../types.js";
import { getTokens, type TokenFilter } from "./getTokens.js";

/** Parameters of {@link iterateTokens}. */
export interface IterateTokensParameters extends TokenFilter, CallOptions {
  /** Tokens per request, 1..100. Default 100. */
  pageSize?: number | undefined;
}

/** What {@link iterateTokens} returns. */
export type IterateTokensReturnType = AsyncGenerator<TokenInfo>;

/** The errors {@link iterateTokens} can throw. */
export type IterateTokensErrorType = RequestError;

/**
 * Yields every token of the listing, page after page, until `total` is reached or a page comes back empty.
 *
 * @throws `RESPONSE_INVALID` when a page does not start at the offset asked for (a server ignoring `offset`
 *   would repeat one page forever).
 *
 * @example for await (const token of iterateTokens(client, { networkId: 1 })) console.log(token.symbol);
 */
export async function* iterateTokens(
  client: BaseClient,
  parameters: IterateTokensParameters = {},
): IterateTokensReturnType {
  const { pageSize = 100, ...rest } = parameters;
  yield* iteratePages(pageSize, (page) => getTokens(client, { ...rest, ...page }));
}
