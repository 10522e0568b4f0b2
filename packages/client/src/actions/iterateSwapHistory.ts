import type { BaseClient, CallOptions } from "../client/types.js";
import type { RequestError } from "../errors/codes.js";
import { buildHistoryQuery } from "../internal/buildHistoryQuery.js";
import { iteratePages } from "../internal/iteratePages.js";
import type { SwapHistoryItem } from "../types.js";
import { getSwapHistory, type SwapHistoryFilter } from "./getSwapHistory.js";

/** Parameters of {@link iterateSwapHistory}. */
export interface IterateSwapHistoryParameters extends SwapHistoryFilter, CallOptions {
  /** Swaps per request, 1..100. Default 100. */
  pageSize?: number | undefined;
}

/** What {@link iterateSwapHistory} returns. */
export type IterateSwapHistoryReturnType = AsyncGenerator<SwapHistoryItem>;

/** The errors {@link iterateSwapHistory} can throw. */
export type IterateSwapHistoryErrorType = RequestError;

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
  parameters: IterateSwapHistoryParameters,
): IterateSwapHistoryReturnType {
  const { pageSize = 100, ...rest } = parameters;
  buildHistoryQuery(rest);
  yield* iteratePages(pageSize, (page) => getSwapHistory(client, { ...rest, ...page }));
}
