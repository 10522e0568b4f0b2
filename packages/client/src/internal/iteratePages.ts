import type { Page } from "../types.js";
import { assertInteger } from "./assertInput.js";
import { assertPageOffset } from "./assertPageOffset.js";

/**
 * Yields every item of a paged listing, page after page, until `total` is reached or a page comes back empty.
 * `pageSize` is checked (1..100) before the first request.
 *
 * @throws `RESPONSE_INVALID` when a page does not start at the offset asked for (a server ignoring `offset`
 *   would repeat one page forever).
 */
export async function* iteratePages<T>(
  pageSize: number,
  getPage: (page: { limit: number; offset: number }) => Promise<Page<T>>,
): AsyncGenerator<T> {
  assertInteger(pageSize, "pageSize", 1, 100);
  let offset = 0;
  for (;;) {
    const page = await getPage({ limit: pageSize, offset });
    assertPageOffset(page, offset);
    yield* page.items;
    offset += page.items.length;
    if (page.items.length === 0 || offset >= page.total) return;
  }
}
