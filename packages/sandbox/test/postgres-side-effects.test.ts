import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SANDBOX_NETWORKS } from "../src/config/networks.js";
import { createBitcoinLeg } from "../src/legs/bitcoin/index.js";
import { LegRejection } from "../src/legs/types.js";
import { createTestLegFactory, createTestWallet } from "./support/createTestLeg.js";
import { createBitcoinUser } from "./support/flows.js";
import { startTestSandbox, type TestSandbox } from "./support/harness.js";
import { startPostgres, type TestPostgres } from "./support/startPostgres.js";

// What lives outside the database (engine reservations, the clock in memory) follows the writes that record it, on a
// real PostgreSQL server: a database per test, faults made by the server itself (a trigger that ends its own backend).
let server: TestPostgres;
let admin: pg.Client;
let databases = 0;
beforeAll(async () => {
  server = await startPostgres();
  admin = await connectAdmin();
});
/** The test's own superuser connection (made again after a server restart). */
async function connectAdmin(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: server.url });
  client.on("error", () => {}); // a server restart ends it; the test connects again
  await client.connect();
  return client;
}
afterAll(async () => {
  await admin?.end();
  await server?.stop();
});
const freshDatabase = () => server.createDatabase(`effects_${++databases}`);

/** Resolves once `condition` holds, polling on timers (no fixed sleep decides an outcome). */
async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Run `sql` on database `url` as the superuser (the test's own connection, not the sandbox's). */
async function onDatabase(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * From now on, a write to `table` (matching `when`, a trigger condition) ends the writing backend on the server
 * itself, inside the statement: the sandbox sees its connection cut mid-write, as with a server restart.
 */
async function cutConnectionOnWrite(url: string, table: string, when = "true"): Promise<void> {
  await onDatabase(
    url,
    `CREATE OR REPLACE FUNCTION cut_connection() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NEW; END $$;
     CREATE TRIGGER cut_connection BEFORE INSERT OR UPDATE ON ${table}
     FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION cut_connection();`,
  );
}

async function stopCuttingConnections(url: string, table: string): Promise<void> {
  await onDatabase(url, `DROP TRIGGER cut_connection ON ${table}`);
}

/** Networks 1 (test leg) and 4 (the real Bitcoin leg and its UTXO ledger). */
const BITCOIN_AND_TEST_EVM = SANDBOX_NETWORKS.filter((n) => n.id === 1 || n.id === 4);

describe("engine reservations follow the intent's write", () => {
  test("an intent creation that answers 503 (connection cut inside the insert) leaves the user's coins free: the retry gets them", async () => {
    const url = await freshDatabase();
    const t = await startTestSandbox({
      databaseUrl: url,
      networks: BITCOIN_AND_TEST_EVM,
      legs: { evm: createTestLegFactory(), bitcoin: createBitcoinLeg },
    });
    try {
      const user = createBitcoinUser();
      // One coin: the intent needs all of it.
      const funded = await t.request("POST", "/sandbox/faucet", {
        network_id: 4,
        address: user.p2tr,
        token: "btc",
        amount: "0.0008",
      });
      expect(funded.status, JSON.stringify(funded.body)).toBe(200);
      const createIntent = async () => {
        const quote = await t.request("POST", "/affiliate/v1/quotes/best", {
          source_chain: 4,
          source_token: "btc",
          dest_chain: 1,
          dest_token: await t.token(1, "USDC"),
          amount: "0.0005",
          slippage_bps: "50",
          swap_type: "standard",
        });
        if (quote.status !== 200) return quote;
        return t.request("POST", "/affiliate/v1/intents", {
          quote_id: quote.body.id,
          refund_address: user.p2wpkh,
          user_source_address: user.p2tr,
          user_destination_address: createTestWallet().address,
          user_source_public_key: user.publicKey,
        });
      };

      await cutConnectionOnWrite(url, "intents");
      const cut = await createIntent();
      expect(cut.status, JSON.stringify(cut.body)).toBe(503);
      await stopCuttingConnections(url, "intents");
      expect((await onDatabase(url, "SELECT id FROM intents")).rows).toEqual([]);

      // Once the sandbox writes again (the lock taken again), the same user's next intent gets the same coin.
      let retry = await createIntent();
      await until(async () => {
        if (retry.status !== 503) return true;
        retry = await createIntent();
        return false;
      }, "the sandbox to write again");
      expect(retry.status, JSON.stringify(retry.body)).toBe(200);
      expect(retry.body.params_to_sign.inputs).toEqual([0]);
    } finally {
      await t.close();
    }
  });
});

/** The dev clock's offset as the sandbox shows it, and as the database holds it. */
async function clockOffsets(t: TestSandbox, url: string) {
  const shown = (await t.request("GET", "/sandbox/clock")).body.offset_ms as number;
  const r = await onDatabase(url, "SELECT value FROM meta WHERE key = 'clock_offset_ms'");
  return { shown, stored: r.rows[0] === undefined ? 0 : Number(r.rows[0].value) };
}

/** POST /sandbox/clock until it is answered other than 503 (the lock being taken again). */
async function advanceUntilWritten(t: TestSandbox, secs: number) {
  let answer = await t.request("POST", "/sandbox/clock", { advance_secs: secs });
  await until(async () => {
    if (answer.status !== 503) return true;
    answer = await t.request("POST", "/sandbox/clock", { advance_secs: secs });
    return false;
  }, "the clock write to go through");
  return answer;
}

/** The backend pid holding the resolver lock of database `url`, or undefined. */
async function lockHolderPid(url: string): Promise<number | undefined> {
  const r = await admin.query<{ pid: number }>(
    `SELECT l.pid FROM pg_locks l JOIN pg_database d ON d.oid = l.database
     WHERE l.locktype = 'advisory' AND l.classid = 1398227280 AND l.objid = 1 AND l.granted AND d.datname = $1`,
    [new URL(url).pathname.slice(1)],
  );
  return r.rows[0]?.pid;
}

async function backendPids(url: string): Promise<number[]> {
  const r = await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1", [
    new URL(url).pathname.slice(1),
  ]);
  return r.rows.map((row) => row.pid);
}

function recordLog() {
  const lines: string[] = [];
  return { lines, log: (line: string) => void lines.push(line), text: () => lines.join("\n") };
}

describe("the dev clock moves only with its stored offset", () => {
  test("POST /sandbox/clock answered 503 leaves the clock where it was; the retry moves it once; a restart keeps it", async () => {
    const url = await freshDatabase();
    const t = await startTestSandbox({ databaseUrl: url });
    let restarted: TestSandbox | undefined;
    try {
      await cutConnectionOnWrite(url, "meta", "NEW.key = 'clock_offset_ms'");
      const cut = await t.request("POST", "/sandbox/clock", { advance_secs: 3600 });
      expect(cut.status, JSON.stringify(cut.body)).toBe(503);
      await stopCuttingConnections(url, "meta");
      expect(await clockOffsets(t, url)).toEqual({ shown: 0, stored: 0 });

      const retried = await advanceUntilWritten(t, 3600);
      expect(retried.status, JSON.stringify(retried.body)).toBe(200);
      expect(retried.body.offset_ms).toBe(3_600_000);
      expect(await clockOffsets(t, url)).toEqual({ shown: 3_600_000, stored: 3_600_000 });

      await t.close();
      restarted = await startTestSandbox({ databaseUrl: url });
      expect((await restarted.request("GET", "/sandbox/clock")).body.offset_ms).toBe(3_600_000);
    } finally {
      await t.close();
      await restarted?.close();
    }
  });

  test("a sandbox that takes the lock back reads the clock another sandbox moved meanwhile, and its next advance adds to it", async () => {
    const url = await freshDatabase();
    const s = await startTestSandbox({ databaseUrl: url });
    let other: TestSandbox | undefined;
    try {
      const before = new Set(await backendPids(url));
      const logT = recordLog();
      const startingT = startTestSandbox({ databaseUrl: url, log: logT.log });
      await until(() => logT.text().includes("waiting for it to stop"), "T to wait for the lock");
      const ofT = (await backendPids(url)).filter((pid) => !before.has(pid));
      // Cut S's lock connection until T holds the lock (S, reconnecting, may take it back first).
      await until(async () => {
        const holder = await lockHolderPid(url);
        if (holder !== undefined && ofT.includes(holder)) return true;
        if (holder !== undefined) await admin.query("SELECT pg_terminate_backend($1)", [holder]);
        return false;
      }, "T to take the lock");
      other = await startingT;
      const moved = await other.request("POST", "/sandbox/clock", { advance_secs: 600 });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      await other.close();

      // S takes the lock back (it polls once a second): it shows T's acknowledged offset, and adds to it.
      const advanced = await advanceUntilWritten(s, 60);
      expect(advanced.status, JSON.stringify(advanced.body)).toBe(200);
      expect(await clockOffsets(s, url)).toEqual({ shown: 660_000, stored: 660_000 });
    } finally {
      await other?.close();
      await s.close();
    }
  });
});

describe("intents are resolved only on the engines that hold their funds", () => {
  test("a sandbox on other engines (another data dir) leaves another's intents in flight alone, says so in its log and GET /sandbox/status, and refuses their approvals; the sandbox on their engines finishes them", async () => {
    const url = await freshDatabase();
    // Each sandbox's engines are its data dir's (the test legs keep their books there); A's dir is used again at the end.
    const dirA = mkdtempSync(join(tmpdir(), "swapintent-engines-a-"));
    const dirB = mkdtempSync(join(tmpdir(), "swapintent-engines-b-"));
    const onDir = (dataDir: string) => ({ databaseUrl: url, dataDir, enginesId: undefined });
    const a = await startTestSandbox(onDir(dirA));
    const idA = readFileSync(join(dirA, "engines-id"), "utf8").trim();
    const approved = await a.createIntent();
    expect((await a.approve(approved.intent, approved.wallet)).status).toBe(200);
    const waiting = await a.createIntent();
    await a.close();

    const logB = recordLog();
    const b = await startTestSandbox({ ...onDir(dirB), log: logB.log });
    const idB = readFileSync(join(dirB, "engines-id"), "utf8").trim();
    let again: TestSandbox | undefined;
    try {
      expect(idB).not.toBe(idA);
      expect(logB.text()).toContain(`1 intent(s) in flight hold funds on other engines (${idA})`);
      const status = await b.request("GET", "/sandbox/status");
      expect(status.body).toEqual({
        engines_id: idB,
        resolver_lock_held: true,
        paused_intents: [{ engines_id: idA, intents: 1 }],
      });
      for (let pass = 0; pass < 3; pass++) await b.sandbox.runResolverOnce();
      expect((await b.status(approved.intent.intent_id)).status).toBe("ApprovalAdded");
      expect(b.legs.get(1)!.calls.deposit ?? 0).toBe(0);
      const refused = await b.approve(waiting.intent, waiting.wallet);
      expect(refused.status, JSON.stringify(refused.body)).toBe(503);
      expect(refused.body.type).toBe("ENGINES_UNAVAILABLE");
      expect((await b.status(waiting.intent.intent_id)).status).toBe("Initiated");
      await b.close();

      again = await startTestSandbox(onDir(dirA));
      expect((await again.request("GET", "/sandbox/status")).body.paused_intents).toEqual([]);
      expect((await again.settle(approved.intent.intent_id, ["Fulfilled"])).status).toBe("Fulfilled");
    } finally {
      await b.close();
      await again?.close();
      rmSync(dirA, { recursive: true, force: true });
      rmSync(dirB, { recursive: true, force: true });
    }
  });

  test("a claim refused as NOT_DEPOSITED (the engine lacks the escrow) is never final: the step stays recorded and is claimed once the escrow is there", async () => {
    const url = await freshDatabase();
    let refuseClaims = true;
    const testLegs = createTestLegFactory();
    const t = await startTestSandbox({
      databaseUrl: url,
      legs: (ctx) => {
        const leg = testLegs(ctx);
        const claim = leg.claim.bind(leg);
        leg.claim = async (...args) => {
          if (refuseClaims) throw new LegRejection("NOT_DEPOSITED", "nothing is escrowed for this intent");
          return claim(...args);
        };
        return leg;
      },
    });
    try {
      const { intent, wallet } = await t.createIntent();
      expect((await t.approve(intent, wallet)).status).toBe(200);
      for (let pass = 0; pass < 4; pass++) await t.sandbox.runResolverOnce();
      const inspected = (await t.request("GET", `/sandbox/intents/${intent.intent_id}`)).body;
      expect(inspected.status).toBe("Fulfilled");
      expect(inspected.pending_step).toBe("claim");
      expect(inspected.last_error).toMatch(/^claim: NOT_DEPOSITED/);

      refuseClaims = false;
      await t.sandbox.runResolverOnce();
      const claimed = (await t.request("GET", `/sandbox/intents/${intent.intent_id}`)).body;
      expect(claimed.pending_step).toBeNull();
      expect((await t.status(intent.intent_id)).swap_metadata.swap_tx).toEqual(expect.any(String));
    } finally {
      await t.close();
    }
  });
});

describe("a sandbox waiting for the lock", () => {
  test("survives a server restart while it waits: it reconnects and starts once the holder stops", async () => {
    const url = await freshDatabase();
    const holder = await startTestSandbox({ databaseUrl: url });
    const logW = recordLog();
    let waiter: TestSandbox | undefined;
    try {
      const starting = startTestSandbox({ databaseUrl: url, log: logW.log });
      let failed: unknown;
      starting.catch((error: unknown) => {
        failed = error;
      });
      await until(() => logW.text().includes("waiting for it to stop"), "the waiter to wait");
      await server.stopServer();
      await server.startServer();
      await admin.end().catch(() => {});
      admin = await connectAdmin();
      await until(
        () => logW.text().includes("reconnecting") || failed !== undefined,
        "the waiter to see the restart",
      );
      expect(failed).toBeUndefined();
      // The holder takes its lock again first (it was first to reconnect) or the waiter gets it: either way, once the
      // holder stops, the waiter runs.
      await holder.close();
      waiter = await starting;
      expect((await waiter.quote({ amount: 5 })).status).toBe(200);
    } finally {
      await holder.close();
      await waiter?.close();
    }
  });
});
