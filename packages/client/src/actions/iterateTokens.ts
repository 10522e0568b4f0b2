import type { BaseClient, CallOptions } from "../client/types.js";
import { assertInteger } from "../internal/assertInput.js";
import { assertPageOffset } from "../internal/assertPageOffset.js";
import type { Token } from "../types.js";
import { getTokens, type TokenFilter } from "./getTokens.js";

/** Parameters of {@link iterateTokens}. */
export interface IterateTokensParams extends TokenFilter, CallOptions {
  /** Tokens per request, 1..100. Default 100. */
  pageSize?: number | undefined;
}

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
  params: IterateTokensParams = {},
): AsyncGenerator<Token> {
  const { pageSize = 100, ...rest } = params;
  assertInteger(pageSize, "pageSize", 1, 100);
  let offset = 0;
  for (;;) {
    const page = await getTokens(client, { ...rest, limit: pageSize, offset });
    assertPageOffset(page, offset);
    yield* page.items;
    offset += page.items.length;
    if (page.items.length === 0 || offset >= page.total) return;
  }
}
