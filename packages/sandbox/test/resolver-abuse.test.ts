import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestSandbox, type TestSandbox } from "./support/harness.js";

let t: TestSandbox;
beforeAll(async () => {
  // legs slow enough (30 ms per deposit and delivery) that faults and the clock jump find intents mid-flight
  t = await startTestSandbox(
    { resolverIntervalMs: 5, intentTtlSecs: 600 },
    { deliverDelayMs: 30, depositDelayMs: 30 },
  );
});
afterAll(() => t?.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SETTLED = ["Fulfilled", "Refunded", "Declined", "Expired"];

/**
 * The resolver driven hard from outside while it runs on its own: abandoned and approved intents mixed, deliveries
 * failing on and off (fault), crashes right after a leg did its work, the clock jumped past the deadline mid-run, and
 * extra passes started by hand on top of the background loop. Afterwards no approved intent is left unfinished,
 * nobody was paid twice or lost funds, and the status endpoint (served from the cache) says what the database says.
 */
test("resolver under abuse: nothing approved left behind, nothing paid twice, the status cache agrees with the database", async () => {
  const src = t.legs.get(1)!;
  const dst = t.legs.get(5)!;
  const usdc1 = await t.token(1, "USDC");
  const usdc5 = await t.token(5, "USDC");
  const destSupply = dst.supply(usdc5);

  const created = await Promise.all(Array.from({ length: 60 }, (_, i) => t.createIntent({ amount: 1 + i })));
  const srcSupply = src.supply(usdc1); // after the faucet mints of createIntent
  const approved = created.filter((_, i) => i % 4 !== 0); // every 4th intent is abandoned before approval
  // status reads before anything moves: the cache holds every intent as Initiated
  for (const c of created) expect((await t.status(c.intent.intent_id)).status).toBe("Initiated");

  const dbStatus = async (id: string) => (await t.request("GET", `/sandbox/intents/${id}`)).body;
  let stop = false;
  const mismatches: string[] = [];
  // a poller comparing cache and database while everything moves (a later write may land between the two reads,
  // so a difference is only recorded when a third read still differs from the database)
  const poller = (async () => {
    while (!stop) {
      for (const c of created) {
        const id = c.intent.intent_id as string;
        const cached = (await t.status(id)).status;
        const stored = (await dbStatus(id)).status;
        if (cached !== stored) {
          const again = (await t.status(id)).status;
          const storedAgain = (await dbStatus(id)).status;
          if (again !== storedAgain && (await t.status(id)).status !== storedAgain)
            mismatches.push(`${id}: cache ${again}, database ${storedAgain}`);
        }
      }
      await sleep(1);
    }
  })();

  // deliveries fail while the first third is approved; the rest are approved after the fault is lifted
  const third = Math.floor(approved.length / 3);
  await t.request("POST", "/sandbox/faults", { fail_delivery: true });
  const approve = (list: typeof approved) =>
    Promise.all(
      list.map((c, i) => {
        if (i % 5 === 1) dst.crashAfterNext("deliver");
        if (i % 5 === 3) src.crashAfterNext("deposit");
        return t.approve(c.intent, c.wallet);
      }),
    );
  const approvals = await approve(approved.slice(0, third));
  await Promise.all([t.sandbox.runResolverOnce(), t.sandbox.runResolverOnce()]);
  await t.request("POST", "/sandbox/faults", { fail_delivery: false });
  approvals.push(...(await approve(approved.slice(third))));
  expect(approvals.filter((a) => a.status !== 200)).toEqual([]);
  // the clock jumps past every deadline while intents are in every state: once the first of the later approvals is
  // delivered (the resolver follows 8 at a time, so others are mid-flight and the rest still wait for it)
  const later = approved.slice(third).map((c) => c.intent.intent_id as string);
  for (const until = Date.now() + 20_000; Date.now() < until; await sleep(5)) {
    const statuses = await Promise.all(later.map(async (id) => (await t.status(id)).status));
    if (statuses.includes("Fulfilled")) break;
  }
  expect((await t.request("POST", "/sandbox/clock", { advance_secs: 3600 })).status).toBe(200);
  await Promise.all([t.sandbox.runResolverOnce(), t.sandbox.runResolverOnce(), t.sandbox.runResolverOnce()]);

  const until = Date.now() + 60_000;
  let rows: { status: string; pending_step: string | null }[] = [];
  while (Date.now() < until) {
    rows = await Promise.all(created.map((c) => dbStatus(c.intent.intent_id)));
    if (rows.every((r) => SETTLED.includes(r.status) && r.pending_step === null)) break;
    await sleep(20);
  }
  stop = true;
  await poller;
  // the abuse reached every outcome: delivered, refunded (failed delivery), expired mid-flight by the clock jump
  const outcomes = new Set(rows.filter((_, i) => i % 4 !== 0).map((r) => r.status));
  expect([...outcomes].sort()).toEqual(expect.arrayContaining(["Expired", "Fulfilled", "Refunded"]));
  expect(rows.filter((r) => !SETTLED.includes(r.status) || r.pending_step !== null)).toEqual([]);
  expect(mismatches).toEqual([]);

  for (const [i, c] of created.entries()) {
    const id = c.intent.intent_id as string;
    const row = await dbStatus(id);
    expect((await t.status(id)).status).toBe(row.status);
    const amount = BigInt(1 + i) * 1_000000n;
    const received = await dst.balanceOf(c.recipient.address, usdc5);
    const userLeft = await src.balanceOf(c.wallet.address, usdc1);
    const funded = 1_000_000n * 1_000000n;
    if (row.status === "Fulfilled") {
      expect(received).toBe(amount); // paid once, exactly
      expect(userLeft).toBe(funded - amount);
    } else {
      expect(received).toBe(0n);
      expect(userLeft).toBe(funded); // refunded in full, or never taken
    }
    if (i % 4 === 0) expect(row.status).toBe("Expired");
  }
  expect(dst.supply(usdc5)).toBe(destSupply);
  expect(src.supply(usdc1)).toBe(srcSupply);
}, 120_000);
