import type { BaseClient, CallOptions } from "../client/types.js";
import { assertInteger } from "../internal/assertInput.js";
import { assertPageOffset } from "../internal/assertPageOffset.js";
import { buildHistoryQuery } from "../internal/buildHistoryQuery.js";
import type { SwapHistoryItem } from "../types.js";
import { getSwapHistory, type SwapHistoryFilter } from "./getSwapHistory.js";

/** Parameters of {@link iterateSwapHistory}. */
export interface IterateSwapHistoryParams extends SwapHistoryFilter, CallOptions {
  /** Swaps per request, 1..100. Default 100. */
  pageSize?: number | undefined;
}

/**
 * Yields every swap history item, page after page, until `total` is reached or a page comes back empty.
 * The filter is checked before the first request.
 *
 * @throws `RESPONSE_INVALID` when a page does not start at the offset asked for (a server ignoring `offset`
 *   would repeat one page forever).
 *
 * @example
 * for await (const item of iterateSwapHistory(client, { wallet: ["0xA…", "0xB…"] })) console.log(item.intentId);
 */
export async function* iterateSwapHistory(
  client: BaseClient,
  params: IterateSwapHistoryParams,
): AsyncGenerator<SwapHistoryItem> {
  const { pageSize = 100, ...rest } = params;
  assertInteger(pageSize, "pageSize", 1, 100);
  buildHistoryQuery(rest);
  let offset = 0;
  for (;;) {
    const page = await getSwapHistory(client, { ...rest, limit: pageSize, offset });
    assertPageOffset(page, offset);
    yield* page.items;
    offset += page.items.length;
    if (page.items.length === 0 || offset >= page.total) return;
  }
}
