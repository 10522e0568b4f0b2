import type { SwapHistoryFilter } from "../types.js";
import { appendPageQuery } from "./appendPageQuery.js";
import { assertNonEmptyString } from "./assertInput.js";
import { invalidInput } from "./invalidInput.js";

/** Builds the query of a history request; checks every filter field. */
export function buildHistoryQuery(
  params: SwapHistoryFilter & { limit?: number | undefined; offset?: number | undefined },
): [string, string][] {
  const query: [string, string][] = [];
  // one wallet or an array of them, each checked: anything else (`null` too) fails as `wallet[0]`
  (params.wallet === undefined ? [] : [params.wallet].flat()).forEach((wallet: unknown, index) => {
    assertNonEmptyString(wallet, `wallet[${index}]`);
    query.push(["wallet", wallet]);
  });
  if (params.retailId !== undefined) {
    assertNonEmptyString(params.retailId, "retailId");
    query.push(["retail_id", params.retailId]);
  }
  if (query.length === 0) throw invalidInput("wallet", "or `retailId` must be given");
  if (params.active !== undefined) {
    if (typeof params.active !== "boolean") throw invalidInput("active", "must be a boolean", params.active);
    query.push(["active", String(params.active)]);
  }
  appendPageQuery(query, params);
  return query;
}
