import type { Quote } from "../types.js";

/** Parameters of {@link getQuoteTimeLeft}. */
export interface GetQuoteTimeLeftParameters {
  quote: Pick<Quote, "expiryMs">;
  /** Current time in unix ms. Default `Date.now()`. */
  now?: number | undefined;
}

/** What {@link getQuoteTimeLeft} returns. */
export type GetQuoteTimeLeftReturnType = number;

/** The errors {@link getQuoteTimeLeft} can throw. */
export type GetQuoteTimeLeftErrorType = never;

/**
 * Milliseconds until the quote expires; 0 once it has. `now` defaults to `Date.now()`.
 *
 * @example
 * const seconds = Math.floor(getQuoteTimeLeft({ quote }) / 1000);
 */
export function getQuoteTimeLeft({
  quote,
  now = Date.now(),
}: GetQuoteTimeLeftParameters): GetQuoteTimeLeftReturnType {
  return Math.max(0, quote.expiryMs - now);
}
