import type { Quote } from "../types.js";

/** Parameters of {@link isQuoteExpired}. */
export interface IsQuoteExpiredParams {
  quote: Pick<Quote, "expiryMs">;
  /** Current time in unix ms. Default `Date.now()`. */
  now?: number | undefined;
  /** Treat the quote as expired this many ms early (time to sign and submit). Default 0. */
  marginMs?: number | undefined;
}

/**
 * True when the quote is past its `expiry` (or within `marginMs` of it).
 *
 * @example
 * if (isQuoteExpired({ quote, marginMs: 5_000 })) quote = await client.getBestQuote(params);
 */
export function isQuoteExpired({ quote, now = Date.now(), marginMs = 0 }: IsQuoteExpiredParams): boolean {
  return now + marginMs >= quote.expiryMs;
}
