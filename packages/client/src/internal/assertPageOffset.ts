import { clientError } from "../errors/codes.js";

/**
 * Throws `RESPONSE_INVALID` unless the page starts where it was asked to. A server that ignores `offset` and
 * answers the same page with a large `total` would otherwise keep a listing loop yielding the same items forever.
 */
export function assertPageOffset(page: { offset: number }, offset: number): void {
  if (page.offset !== offset)
    throw clientError("RESPONSE_INVALID", {
      issues: [{ path: "offset", message: `expected ${offset}` }],
    });
}
