import type { Quote } from "../types.js";

/** Parameters of {@link isQuoteExpired}. */
export interface IsQuoteExpiredParameters {
  quote: Pick<Quote, "expiryMs">;
  /** Current time in unix ms. Default `Date.now()`. */
  now?: number | undefined;
  /** Treat the quote as expired this many ms early (time to sign and submit). Default 0. */
  marginMs?: number | undefined;
}

/** What {@link isQuoteExpired} returns. */
export type IsQuoteExpiredReturnType = boolean;

/** The errors {@link isQuoteExpired} can throw. */
export type IsQuoteExpiredErrorType = never;

/**
 * True when the quote is past its `expiry` (or within `marginMs` of it).
 *
 * @example
 * if (isQuoteExpired({ quote, marginMs: 5_000 })) quote = await client.getBestQuote(params);
 */
export function isQuoteExpired({
  quote,
  now = Date.now(),
  marginMs = 0,
}: IsQuoteExpiredParameters): IsQuoteExpiredReturnType {
  return now + marginMs >= quote.expiryMs;
}
