import { expect, test } from "vitest";
import { computeQuoteAmounts } from "./computeQuoteAmounts.js";

const usdc = { decimals: 6, price: { numerator: 1n, denominator: 1n } };
const eth = { decimals: 18, price: { numerator: 3000n, denominator: 1n } };
const trx = { decimals: 6, price: { numerator: 1n, denominator: 4n } };

test("direct route: max is the value at the table's prices, min applies the slippage, rounding down", () => {
  // 1 USDC = 1/3000 ETH = 333333333333333.33 wei -> 333333333333333
  expect(
    computeQuoteAmounts({
      source: usdc,
      dest: eth,
      sourceLots: 1_000000n,
      slippageBps: 100n,
      intermediate: null,
    }),
  ).toEqual({
    maxDestLots: 333333333333333n,
    minDestLots: 329999999999999n, // 333333333333333 * 9900 / 10000 = 329999999999999.67
    intermediate: null,
  });
});

test("rational prices: 10 TRX at 0.25 USD buy 2.5 USDC", () => {
  expect(
    computeQuoteAmounts({
      source: trx,
      dest: usdc,
      sourceLots: 10_000000n,
      slippageBps: 0n,
      intermediate: null,
    }).maxDestLots,
  ).toBe(2_500000n);
});

test("routed: the amount goes through the intermediate token, each leg rounded down", () => {
  const r = computeQuoteAmounts({
    source: eth,
    dest: trx,
    sourceLots: 10n ** 18n,
    slippageBps: 50n,
    intermediate: usdc,
  });
  expect(r.intermediate).toEqual({ maxLots: 3000_000000n, minLots: 2985_000000n });
  expect(r.maxDestLots).toBe(12000_000000n);
  expect(r.minDestLots).toBe(11940_000000n);
});

test("slippage 10000 leaves a zero minimum", () => {
  expect(
    computeQuoteAmounts({ source: usdc, dest: usdc, sourceLots: 5n, slippageBps: 10000n, intermediate: null })
      .minDestLots,
  ).toBe(0n);
});
