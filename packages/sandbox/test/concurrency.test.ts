import { afterAll, beforeAll, expect, test } from "vitest";
import { createTestWallet, signTestApproval } from "./support/createTestLeg.js";
import { startTestSandbox, type TestSandbox } from "./support/harness.js";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox({ resolverIntervalMs: 20 });
});
afterAll(() => t?.close());

test("50 concurrent intents are all distinct, none is lost, and each is fulfilled exactly once", async () => {
  const src = t.legs.get(1)!;
  const dst = t.legs.get(5)!;
  const usdc1 = await t.token(1, "USDC");
  const usdc5 = await t.token(5, "USDC");
  const supplyBefore = [src.supply(usdc1), dst.supply(usdc5)];
  const created = await Promise.all(Array.from({ length: 50 }, (_, i) => t.createIntent({ amount: 1 + i })));
  const ids = created.map((c) => c.intent.intent_id);
  expect(new Set(ids).size).toBe(50);
  expect(new Set(created.map((c) => c.intent.secret_hash)).size).toBe(50);
  expect(new Set(created.map((c) => c.quote.id)).size).toBe(50);
  const approvals = await Promise.all(created.map((c) => t.approve(c.intent, c.wallet)));
  expect(approvals.map((a) => a.status)).toEqual(Array(50).fill(200));
  const deadline = Date.now() + 60_000;
  let statuses: string[] = [];
  while (Date.now() < deadline) {
    statuses = await Promise.all(ids.map(async (id) => (await t.status(id)).status));
    if (statuses.every((s) => s === "Fulfilled")) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(statuses).toEqual(Array(50).fill("Fulfilled"));
  for (const [i, c] of created.entries()) {
    expect(await dst.balanceOf(c.recipient.address, usdc5)).toBe(BigInt(1 + i) * 1_000000n);
  }
  // funds are only moved, never created: supplies before (plus faucet mints) equal supplies after
  expect(src.supply(usdc1)).toBe(supplyBefore[0]! + 50n * 1_000_000_000000n);
  expect(dst.supply(usdc5)).toBe(supplyBefore[1]);
}, 90_000);

test("concurrent creates from one quote: exactly one succeeds, the others get QUOTE_ALREADY_USED", async () => {
  for (let round = 0; round < 5; round++) {
    const q = await t.quote({});
    const results = await Promise.all(
      Array.from({ length: 4 }, () => {
        const w = createTestWallet();
        return t.request("POST", "/affiliate/v1/intents", {
          quote_id: q.body.id,
          refund_address: w.address,
          user_destination_address: w.address,
          user_source_address: w.address,
        });
      }),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422, 422]);
    expect(results.filter((r) => r.status === 422).map((r) => r.body.type)).toEqual(
      Array(3).fill("QUOTE_ALREADY_USED"),
    );
  }
});

test("concurrent approvals of one intent: exactly one is added", async () => {
  const { intent, wallet } = await t.createIntent();
  const body = signTestApproval({ wallet, intent });
  const results = await Promise.all(
    Array.from({ length: 4 }, () =>
      t.request("POST", `/affiliate/v1/intents/${intent.intent_id}/approvals`, body),
    ),
  );
  expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422, 422]);
});
