import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { openDatabase } from "../src/db/openDatabase.js";
import type { LegFactory } from "../src/types.js";
import { createTestLegFactory } from "./support/createTestLeg.js";
import { startTestSandbox, type TestSandbox } from "./support/harness.js";

const dirs: string[] = [];
const sandboxes: TestSandbox[] = [];
afterEach(async () => {
  await Promise.allSettled(sandboxes.splice(0).map((s) => s.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Bytes of the intents table and its indexes in the data dir's database. */
async function intentBytes(dataDir: string): Promise<number> {
  const db = await openDatabase({ dir: join(dataDir, "db") });
  try {
    const r = await db.query<{ bytes: number }>("SELECT pg_total_relation_size('intents')::int AS bytes");
    return r.rows[0]!.bytes;
  } finally {
    await db.close();
  }
}

/** A test leg factory whose deposits always fail: every approved intent gets stuck in Accepted. */
const failingDeposits: LegFactory = (ctx) => {
  const leg = createTestLegFactory({})(ctx);
  leg.deposit = async () => {
    throw new Error("engine unavailable (test)");
  };
  return leg;
};

/** A sandbox on `dataDir` whose deposits fail (see {@link failingDeposits}), in a fresh data dir unless given one. */
async function start(dataDir?: string) {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), "swapintent-writes-"));
  if (!dataDir) dirs.push(dir);
  const t = await startTestSandbox({ dataDir: dir, legs: failingDeposits });
  sandboxes.push(t);
  return { t, dataDir: dir };
}

/** Create and approve `count` intents, 25 at a time; returns their ids. */
async function approveMany(t: TestSandbox, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 25)
    await Promise.all(
      Array.from({ length: Math.min(25, count - i) }, async () => {
        const { intent, wallet } = await t.createIntent({ amount: 5 });
        await t.approve(intent, wallet);
        ids.push(intent.intent_id);
      }),
    );
  return ids;
}

/**
 * Every pass wrote each stuck intent's row once more (its place in the resolver's queue, next_attempt_ms), although
 * the whole work list fit in one batch, so the order of the next pass was the same with or without it. Without
 * autovacuum (PGlite) each such write left a dead row version and an index entry: 50 stuck intents grew the intents
 * table by 272 KB in 100 passes (about 56 bytes per stuck intent per pass). A pass that covers the whole work list
 * now writes nothing for an intent that did not move.
 */
test("passes over stuck intents that all fit in one batch write nothing: the intents table does not grow", {
  timeout: 120_000,
}, async () => {
  let { t, dataDir } = await start();
  const ids = await approveMany(t, 50);
  // Accepted, the deposit recorded and its error stored: from now on each pass only retries.
  await t.sandbox.runResolverOnce();
  await t.sandbox.runResolverOnce();
  await t.close();
  const before = await intentBytes(dataDir);

  ({ t } = await start(dataDir));
  for (let pass = 0; pass < 100; pass++) await t.sandbox.runResolverOnce();
  const one = (await t.request("GET", `/sandbox/intents/${ids[0]}`)).body;
  expect(one.status).toBe("Accepted");
  expect(one.pending_step).toBe("deposit");
  expect(one.last_error).toContain("engine unavailable");
  await t.close();
  expect((await intentBytes(dataDir)) - before).toBe(0);
});

/**
 * With more stuck intents than a pass takes (200), each pass must move the ones it tried behind the others, so those
 * writes stay: each rewrote a whole row (a few KB, about one per page), and without autovacuum PGlite never reused the
 * space: 250 stuck intents grew the intents table by 4.5 to 6.8 MB every 50 passes. A VACUUM after every 2,000
 * deferrals keeps it flat.
 */
test("passes over more stuck intents than a batch: the intents table stops growing", {
  timeout: 180_000,
}, async () => {
  let { t, dataDir } = await start();
  await approveMany(t, 250);
  for (let pass = 0; pass < 3; pass++) await t.sandbox.runResolverOnce();
  await t.close();
  const bytes: number[] = [];
  for (let round = 0; round < 3; round++) {
    ({ t } = await start(dataDir));
    for (let pass = 0; pass < 30; pass++) await t.sandbox.runResolverOnce();
    await t.close();
    bytes.push(await intentBytes(dataDir));
  }
  expect(bytes[2]).toBeLessThanOrEqual(bytes[0]! + 256 * 1024);
});
