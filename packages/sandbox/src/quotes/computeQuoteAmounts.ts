import type { Price } from "../config/prices.js";

/** A token's pricing facts. */
export interface PricedToken {
  decimals: number;
  price: Price;
}

/** Amounts of a quote, all integer lots. */
export interface QuoteAmounts {
  maxDestLots: bigint;
  minDestLots: bigint;
  /** Present when the route goes through an intermediate token. */
  intermediate: { minLots: bigint; maxLots: bigint } | null;
}

const BPS = 10_000n;

/** `lots` of `from` expressed in lots of `to` at the table's prices, rounded down. */
function convert(lots: bigint, from: PricedToken, to: PricedToken): bigint {
  const numerator = lots * from.price.numerator * to.price.denominator * 10n ** BigInt(to.decimals);
  const denominator = 10n ** BigInt(from.decimals) * from.price.denominator * to.price.numerator;
  return numerator / denominator;
}

/** `max * (10000 - slippage) / 10000`, rounded down. */
function applySlippage(max: bigint, slippageBps: bigint): bigint {
  return (max * (BPS - slippageBps)) / BPS;
}

/**
 * Price a swap exactly (bigint rationals, rounding down): the maximum destination amount is the source amount at
 * the table's prices; the minimum applies the slippage. With an intermediate token the destination amount is
 * computed through it (source -> intermediate -> destination, each rounded down), as a routed fill would be.
 *
 * @example computeQuoteAmounts({ source: usdc, dest: eth, sourceLots: 3000_000000n, slippageBps: 50n, intermediate: null })
 */
export function computeQuoteAmounts({
  source,
  dest,
  sourceLots,
  slippageBps,
  intermediate,
}: {
  source: PricedToken;
  dest: PricedToken;
  sourceLots: bigint;
  slippageBps: bigint;
  intermediate: PricedToken | null;
}): QuoteAmounts {
  if (intermediate === null) {
    const maxDestLots = convert(sourceLots, source, dest);
    return { maxDestLots, minDestLots: applySlippage(maxDestLots, slippageBps), intermediate: null };
  }
  const maxMid = convert(sourceLots, source, intermediate);
  const maxDestLots = convert(maxMid, intermediate, dest);
  return {
    maxDestLots,
    minDestLots: applySlippage(maxDestLots, slippageBps),
    intermediate: { maxLots: maxMid, minLots: applySlippage(maxMid, slippageBps) },
  };
}
