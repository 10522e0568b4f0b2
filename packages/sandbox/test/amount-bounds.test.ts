import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestSandbox, type TestSandbox } from "./support/harness.js";

// No amount the sandbox quotes, stores or hands to a leg is above 2^256-1 lots (no chain's amount type holds more):
// neither the source amount the user asks for nor any amount computed from it (intermediate, destination).
let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox({ maxQuoteUsd: 10n ** 100n });
});
afterAll(() => t?.close());

const MAX = 2n ** 256n - 1n;
const asHuman = (lots: bigint, decimals: number) => {
  const unit = 10n ** BigInt(decimals);
  return `${lots / unit}.${(lots % unit).toString().padStart(decimals, "0")}`;
};

async function quote(source: [number, string], dest: [number, string], amount: string) {
  const body = `{"source_chain":${source[0]},"source_token":"${await t.token(...source)}","dest_chain":${dest[0]},"dest_token":"${await t.token(...dest)}","amount":${amount},"slippage_bps":"0","swap_type":"standard"}`;
  return t.request("POST", "/affiliate/v1/quotes/best", body);
}

test("a source amount of 2^256-1 lots is quoted; one lot more is 400 INVALID_AMOUNT", async () => {
  const ok = await quote([1, "USDC"], [5, "USDC"], asHuman(MAX, 6));
  expect(ok.status).toBe(200);
  expect(ok.body.source_amount_lots ?? ok.body.amount_lots ?? JSON.stringify(ok.body)).toContain(
    MAX.toString(),
  );
  const over = await quote([1, "USDC"], [5, "USDC"], asHuman(MAX + 1n, 6));
  expect([over.status, over.body.type]).toEqual([400, "INVALID_AMOUNT"]);
});

test("a quote whose destination (or intermediate) amount would pass 2^256-1 lots is 422 AMOUNT_TOO_LARGE", async () => {
  // 6-decimal USDC into 18-decimal WETH at 3000 USD: 2^256-1 USDC lots buy about 3.9e85 WETH lots.
  const r = await quote([1, "USDC"], [2, "WETH"], asHuman(MAX, 6));
  expect([r.status, r.body.type], JSON.stringify(r.body)).toEqual([422, "AMOUNT_TOO_LARGE"]);
  // The largest amount that still fits is quoted, with every amount in bounds.
  const fits = await quote([1, "USDC"], [2, "WETH"], asHuman(MAX / 10n ** 12n, 6));
  expect(fits.status).toBe(200);
  for (const field of ["max_dest_amount_lots", "min_dest_amount_lots", "intermediate_token_amount_max"])
    if (fits.body[field] != null) expect(BigInt(fits.body[field]) <= MAX, field).toBe(true);
});
