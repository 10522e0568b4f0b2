import { assertInteger } from "./assertInput.js";

/** Checks `limit` (1..100) and `offset` (>= 0) where given, and appends them to `query`. */
export function appendPageQuery(
  query: [string, string][],
  { limit, offset }: { limit?: number | undefined; offset?: number | undefined },
): void {
  if (limit !== undefined) {
    assertInteger(limit, "limit", 1, 100);
    query.push(["limit", String(limit)]);
  }
  if (offset !== undefined) {
    assertInteger(offset, "offset");
    query.push(["offset", String(offset)]);
  }
}
