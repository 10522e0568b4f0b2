import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestSandbox, type TestSandbox } from "./support/harness.js";

let t: TestSandbox;
const logs: string[] = [];
beforeAll(async () => {
  t = await startTestSandbox({ resolverStepsPerPass: 1, log: (message) => logs.push(message) });
});
afterAll(() => t?.close());

/**
 * An engine that stays down (anvil gone, a refused connection) fails the same step the same way on every pass,
 * four times a second at the default interval, for as long as the sandbox runs. Each failure was logged and written
 * to `last_error` again: 5 such intents wrote 31,000 log lines in 25 minutes' worth of passes. The step is still
 * retried every pass; only a new error text is logged and stored.
 */
test("a step that keeps failing the same way is retried every pass but logged once per distinct error", async () => {
  const dst = t.legs.get(5)!;
  const original = dst.deliver;
  let message = "connect ECONNREFUSED 127.0.0.1:8545";
  let calls = 0;
  dst.deliver = async () => {
    calls++;
    throw new Error(message);
  };
  try {
    const { intent, wallet, recipient, quote } = await t.createIntent({ amount: 12 });
    expect((await t.approve(intent, wallet)).status).toBe(200);
    await t.settle(intent.intent_id, ["UserDeposited"]);
    logs.length = 0;
    calls = 0;
    for (let pass = 0; pass < 20; pass++) await t.sandbox.runResolverOnce();
    expect(calls).toBe(20); // retried on every pass
    const lines = () => logs.filter((line) => line.includes(intent.intent_id));
    expect(lines()).toEqual([
      `intent ${intent.intent_id}: deliver failed, will retry (connect ECONNREFUSED 127.0.0.1:8545)`,
    ]);
    const row = async () => (await t.request("GET", `/sandbox/intents/${intent.intent_id}`)).body;
    expect(await row()).toMatchObject({
      status: "UserDeposited",
      pending_step: "deliver",
      last_error: "deliver: connect ECONNREFUSED 127.0.0.1:8545",
    });

    message = "engine answered 502";
    for (let pass = 0; pass < 5; pass++) await t.sandbox.runResolverOnce();
    expect(lines()).toHaveLength(2);
    expect(lines()[1]).toContain("engine answered 502");
    expect((await row()).last_error).toBe("deliver: engine answered 502");

    dst.deliver = original;
    const final = await t.settle(intent.intent_id, ["Fulfilled"], 4);
    expect(final.status).toBe("Fulfilled");
    expect(await dst.balanceOf(recipient.address, quote.dest_token)).toBe(12_000000n);
  } finally {
    dst.deliver = original;
  }
});

/**
 * The same class before a step starts: an approved intent whose destination engine is down failed its inventory check
 * on every pass, and each failure was logged (4 lines a second per intent at the default interval), with nothing in
 * `last_error` to say why it stayed ApprovalAdded. Logged and stored once per distinct error now, still retried.
 */
test("an inventory check that keeps failing the same way is retried every pass but logged once per distinct error", async () => {
  const dst = t.legs.get(5)!;
  const original = dst.inventory;
  let message = "connect ECONNREFUSED 127.0.0.1:8899";
  let calls = 0;
  dst.inventory = async () => {
    calls++;
    throw new Error(message);
  };
  try {
    const { intent, wallet } = await t.createIntent({ amount: 3 });
    logs.length = 0;
    expect((await t.approve(intent, wallet)).status).toBe(200);
    for (let pass = 0; pass < 20; pass++) await t.sandbox.runResolverOnce();
    expect(calls).toBe(20); // retried on every pass
    const lines = () => logs.filter((line) => line.includes(intent.intent_id));
    expect(lines()).toEqual([
      `intent ${intent.intent_id}: inventory check failed, will retry (connect ECONNREFUSED 127.0.0.1:8899)`,
    ]);
    const row = async () => (await t.request("GET", `/sandbox/intents/${intent.intent_id}`)).body;
    expect(await row()).toMatchObject({
      status: "ApprovalAdded",
      last_error: "inventory: connect ECONNREFUSED 127.0.0.1:8899",
    });
    message = "engine answered 502";
    for (let pass = 0; pass < 5; pass++) await t.sandbox.runResolverOnce();
    expect(lines()).toHaveLength(2);
    expect((await row()).last_error).toBe("inventory: engine answered 502");

    dst.inventory = original;
    const final = await t.settle(intent.intent_id, ["Fulfilled"], 6);
    expect(final.status).toBe("Fulfilled");
    expect((await row()).last_error).toBeNull(); // the check's own error is cleared once it passes
  } finally {
    dst.inventory = original;
  }
});

/**
 * A full batch (200 intents) starts the next pass at once, to drain a backlog. When every intent in it is stuck (an
 * engine that stays down with 200 or more intents in flight) there is nothing to drain: the resolver ran pass after
 * pass without a pause, retrying each intent about 2.6 times a second and using about 37% of a core, for as long as
 * the engine stayed down. It waits its interval after a pass that moved nothing.
 */
test("with a full batch of intents that all keep failing, the resolver waits its interval between passes instead of spinning", async () => {
  const s = await startTestSandbox({ resolverIntervalMs: 2_000 });
  try {
    const dst = s.legs.get(5)!;
    let calls = 0;
    dst.deliver = async () => {
      calls++;
      throw new Error("engine unreachable");
    };
    for (let i = 0; i < 210; i += 30)
      await Promise.all(
        Array.from({ length: 30 }, async () => {
          const { intent, wallet } = await s.createIntent({ amount: 5 });
          expect((await s.approve(intent, wallet)).status).toBe(200);
        }),
      );
    // the background loop takes them up; once all are stuck, count the attempts over two intervals
    for (const until = Date.now() + 20_000; calls < 210 && Date.now() < until; )
      await new Promise((r) => setTimeout(r, 50));
    expect(calls).toBeGreaterThanOrEqual(210);
    calls = 0;
    await new Promise((r) => setTimeout(r, 4_000));
    // at most three passes of 200 in 4 s at a 2 s interval (spinning, it was 1,600-2,600)
    expect(calls).toBeLessThanOrEqual(600);
    expect(calls).toBeGreaterThan(0); // still retried
  } finally {
    await s.close();
  }
}, 60_000);
