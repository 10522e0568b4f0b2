import type { Quote } from "../types.js";

/**
 * Milliseconds until the quote expires; 0 once it has. `now` defaults to `Date.now()`.
 *
 * @example
 * const seconds = Math.floor(getQuoteTimeLeft({ quote }) / 1000);
 */
export function getQuoteTimeLeft({
  quote,
  now = Date.now(),
}: {
  quote: Pick<Quote, "expiryMs">;
  now?: number | undefined;
}): number {
  return Math.max(0, quote.expiryMs - now);
}
