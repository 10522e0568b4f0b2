import type { BaseClient, CallOptions } from "../client/types.js";
import type { RequestError } from "../errors/codes.js";
import { buildHistoryQuery } from "../internal/buildHistoryQuery.js";
import { parseHistoryPage } from "../internal/wire.js";
import type { Page, SwapHistoryFilter, SwapHistoryItem } from "../types.js";

export type { SwapHistoryFilter } from "../types.js";

/** Parameters of {@link getSwapHistory}. */
export interface GetSwapHistoryParameters extends SwapHistoryFilter, CallOptions {
  /** Page size, 1..100 (the service's default is 20). */
  limit?: number | undefined;
  /** Swaps to skip, >= 0. */
  offset?: number | undefined;
}

/** What {@link getSwapHistory} returns (awaited). */
export type GetSwapHistoryReturnType = Page<SwapHistoryItem>;

/** The errors {@link getSwapHistory} can throw. */
export type GetSwapHistoryErrorType = RequestError;

/**
 * Reads one page of swap history (`GET /affiliate/v1/swaps/history`) by wallet(s) and/or retail id.
 * Also the way to find out whether a timed-out `createIntent` happened: look for the intent by wallet.
 *
 * @example
 * const open = await getSwapHistory(client, { wallet: "0xUser…", active: true, limit: 20 });
 * console.log(open.total, open.items.map((item) => item.status));
 */
export async function getSwapHistory(
  client: BaseClient,
  parameters: GetSwapHistoryParameters,
): Promise<GetSwapHistoryReturnType> {
  return client.request({
    method: "GET",
    path: "/affiliate/v1/swaps/history",
    query: buildHistoryQuery(parameters),
    idempotent: true,
    parse: parseHistoryPage,
    signal: parameters.signal,
    timeoutMs: parameters.timeoutMs,
  });
}
