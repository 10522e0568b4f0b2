import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { acquireResolverLock } from "../src/db/acquireResolverLock.js";
import { isDatabaseError } from "../src/db/databaseError.js";
import { openSandboxDatabase } from "../src/db/openSandboxDatabase.js";
import { startSandbox } from "../src/index.js";
import { createTestLegFactory, createTestWallet, signTestApproval } from "./support/createTestLeg.js";
import { startTestSandbox, type Wire } from "./support/harness.js";
import { type SpawnedSandbox, spawnSandbox } from "./support/spawnSandbox.js";
import { freePort, startPostgres, type TestPostgres } from "./support/startPostgres.js";

// One PostgreSQL server for this file; each test gets a database of its own.
let pg: TestPostgres;
let databases = 0;
const running: SpawnedSandbox[] = [];
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(async () => {
  await Promise.all(running.map((s) => s.kill()));
  await pg?.stop();
});
const freshDatabase = () => pg.createDatabase(`sandbox_${++databases}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A log sink that keeps every line. */
function recordLog() {
  const lines: string[] = [];
  return { lines, log: (line: string) => void lines.push(line), text: () => lines.join("\n") };
}

/** Start a sandbox on test legs; returns the error it fails with (or fails the test when it starts). */
async function failToStart(options: Parameters<typeof startSandbox>[0]) {
  let legsCreated = 0;
  const outcome = await startSandbox({
    log: () => {},
    ...options,
    legs: createTestLegFactory({ onCreate: () => legsCreated++ }),
  }).then(
    async (sandbox) => {
      await sandbox.close();
      return undefined;
    },
    (error: unknown) => error,
  );
  if (outcome === undefined) throw new Error("the sandbox started");
  return { error: outcome, legsCreated };
}

describe("a database that cannot be used fails the start with a coded error, never the password", () => {
  test("bad URLs: refused before any connection (no leg started)", async () => {
    const urls = [
      "postgres//app:hunter2@127.0.0.1/db",
      "mysql://app:hunter2@127.0.0.1:3306/db",
      "postgres://app:hunter2@/db",
      "postgres://app:hunter2@127.0.0.1:0/db",
      "hunter2",
    ];
    for (const databaseUrl of urls) {
      const { error, legsCreated } = await failToStart({ databaseUrl });
      expect(isDatabaseError(error, "SANDBOX_DATABASE_URL_INVALID"), databaseUrl).toBe(true);
      expect(legsCreated).toBe(0);
      expect(`${(error as Error).message}${JSON.stringify(error)}`).not.toContain("hunter2");
    }
  });

  test("a wrong password or an unknown database: SANDBOX_DATABASE_REFUSED at once, no retry", async () => {
    const wrongPassword = pg.url.replace(pg.password, "hunter2");
    const noDatabase = pg.url.replace(/\/postgres$/, "/no_such_db");
    for (const [databaseUrl, sqlState] of [
      [wrongPassword, "28P01"],
      [noDatabase, "3D000"],
    ] as const) {
      const record = recordLog();
      const { error } = await failToStart({ databaseUrl, log: record.log });
      if (!isDatabaseError(error, "SANDBOX_DATABASE_REFUSED")) throw error;
      expect(error.details.sqlState).toBe(sqlState);
      expect(error.details.url).toContain(":***@");
      expect(record.text()).not.toContain("retrying");
      expect(`${error.message}${JSON.stringify(error)}${record.text()}`).not.toMatch(
        new RegExp(`hunter2|${pg.password}`),
      );
    }
  });

  test("a server that is down: retried with backoff (logged, redacted), then SANDBOX_DATABASE_UNREACHABLE", async () => {
    const port = await freePort();
    const record = recordLog();
    const { error, legsCreated } = await failToStart({
      databaseUrl: `postgres://app:hunter2@127.0.0.1:${port}/sandbox`,
      databaseStartTimeoutSecs: 1,
      log: record.log,
    });
    if (!isDatabaseError(error, "SANDBOX_DATABASE_UNREACHABLE")) throw error;
    expect(error.details.lastErrorCode).toBe("ECONNREFUSED");
    expect(error.details.attempts).toBeGreaterThanOrEqual(3); // 200 ms, 400 ms, then out of time
    expect(record.lines.filter((l) => l.includes("retrying in")).length).toBe(error.details.attempts - 1);
    expect(record.text()).toContain(`postgres://app:***@127.0.0.1:${port}/sandbox`);
    expect(`${error.message}${JSON.stringify(error)}${record.text()}`).not.toContain("hunter2");
    expect(legsCreated).toBe(0);
  });

  test("a server that comes up during the retries: the sandbox starts on it", async () => {
    const url = await freshDatabase();
    await pg.stopServer();
    const record = recordLog();
    const starting = startTestSandbox({ databaseUrl: url, databaseStartTimeoutSecs: 60, log: record.log });
    try {
      while (!record.text().includes("not reachable")) await sleep(50);
    } finally {
      await pg.startServer();
    }
    const t = await starting;
    try {
      expect((await t.request("GET", "/affiliate/v1/networks")).status).toBe(200);
      expect(record.text()).toMatch(/reachable after \d+ attempts/);
    } finally {
      await t.close();
    }
  });
});

describe("one sandbox resolves per database", () => {
  test("a second sandbox refuses with --no-wait, or waits (saying who holds it) and takes over when the first closes", async () => {
    const url = await freshDatabase();
    const first = await startTestSandbox({ databaseUrl: url });
    const { intent } = await first.createIntent();

    const { error, legsCreated } = await failToStart({ databaseUrl: url, waitForDatabaseLock: false });
    if (!isDatabaseError(error, "SANDBOX_DATABASE_LOCKED")) throw error;
    expect(error.details.holder).toContain(`pid=${process.pid}`);
    expect(legsCreated).toBe(0);

    const record = recordLog();
    let started = false;
    const second = startTestSandbox({ databaseUrl: url, log: record.log }).then((t) => {
      started = true;
      return t;
    });
    while (!record.text().includes("waiting for it to stop")) await sleep(50);
    expect(record.text()).toContain("swapintent-sandbox pid=");
    await sleep(1_500);
    expect(started).toBe(false); // still waiting, serving nothing
    await first.close();
    const t = await second;
    try {
      expect((await t.status(intent.intent_id)).status).toBe("Initiated");
    } finally {
      await t.close();
    }
  });
});

describe("a connection that dies", () => {
  test("mid-transaction: the transaction fails as SANDBOX_DATABASE_UNAVAILABLE, none of it is written, the next one works once the lock is taken again", async () => {
    const opened = await openSandboxDatabase({ databaseUrl: await freshDatabase(), log: () => {} });
    const { db, gate } = opened;
    try {
      const outcome = await db
        .transaction(async (tx) => {
          await tx.query("INSERT INTO meta (key, value) VALUES ('half', 'written')");
          const pid = (await tx.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
          await db.read("SELECT pg_terminate_backend($1)", [pid]); // from a reader connection
          await tx.query("INSERT INTO meta (key, value) VALUES ('other', 'half')");
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      if (!isDatabaseError(outcome, "SANDBOX_DATABASE_UNAVAILABLE")) throw outcome;
      expect((await db.read("SELECT key FROM meta WHERE key IN ('half', 'other')")).rows).toEqual([]);
      // The transaction ran on the writer, which is the lock's connection: the lock is lost with it, and writes
      // fail (nothing half-done) until it is taken again.
      while (gate.held()) await sleep(10);
      const refused = await db.query("INSERT INTO meta (key, value) VALUES ('early', 'x')").catch((e) => e);
      expect(isDatabaseError(refused, "SANDBOX_DATABASE_UNAVAILABLE") && refused.details.driverCode).toBe(
        "lock_lost",
      );
      while (!gate.held()) await sleep(20);
      expect(gate.generation()).toBe(2);
      await db.transaction((tx) => tx.query("INSERT INTO meta (key, value) VALUES ('whole', 'written')"));
      expect((await db.read("SELECT key, value FROM meta WHERE key IN ('whole', 'early')")).rows).toEqual([
        { key: "whole", value: "written" },
      ]);
    } finally {
      await opened.close();
    }
  });

  test("the lock's own connection: the lock is released, then taken again (a new generation)", async () => {
    const url = await freshDatabase();
    const record = recordLog();
    const lock = await acquireResolverLock({ url, waitMs: 0, log: record.log });
    const opened = await openSandboxDatabase({ databaseUrl: pg.url, log: () => {} }); // an admin connection
    try {
      expect([lock.held(), lock.generation()]).toEqual([true, 1]);
      const holder = await opened.db.read<{ pid: number }>(
        `SELECT l.pid FROM pg_locks l JOIN pg_database d ON d.oid = l.database
         WHERE l.locktype = 'advisory' AND l.classid = 1398227280 AND l.objid = 1 AND l.granted AND d.datname = $1`,
        [new URL(url).pathname.slice(1)],
      );
      expect(holder.rows).toHaveLength(1);
      await opened.db.read("SELECT pg_terminate_backend($1)", [holder.rows[0]!.pid]);
      while (lock.held()) await sleep(10);
      while (!lock.held()) await sleep(20);
      expect(lock.generation()).toBe(2);
      expect(record.text()).toContain("the resolver pauses");
      expect(record.text()).toContain("resolver lock taken again");
    } finally {
      await lock.release();
      await opened.close();
    }
  });
});

describe("the database server restarts mid-flow", () => {
  test("requests answer 503 JSON while it is away, the resolver pauses and resumes: every intent finishes, paid once", async () => {
    const url = await freshDatabase();
    const record = recordLog();
    const t = await startTestSandbox(
      { databaseUrl: url, resolverIntervalMs: 50, log: record.log },
      { deliverDelayMs: 2_000 },
    );
    try {
      const flows = await Promise.all([1, 2, 3].map(() => t.createIntent({ amount: 10 })));
      for (const { intent, wallet } of flows) expect((await t.approve(intent, wallet)).status).toBe(200);
      // Wait until the deliveries are in flight (booked by the leg, not yet written), then take the server away.
      const before = ["Initiated", "ApprovalAdded", "Accepted"];
      const notYet = async () =>
        (await Promise.all(flows.map((f) => t.status(f.intent.intent_id)))).some((s) =>
          before.includes(s.status),
        );
      while (await notYet()) await sleep(20);
      await sleep(300);
      await pg.stopServer();
      try {
        const quote = await t.quote({ amount: 5 });
        expect(quote.status).toBe(503);
        expect(quote.body).toEqual({
          code: 503,
          message: "The database is unavailable; retry shortly.",
          entity: "Other",
          type: "SERVICE_UNAVAILABLE",
        });
        expect(quote.headers.get("retry-after")).toBe("1");
        const history = `/affiliate/v1/swaps/history?wallet=${flows[0]!.wallet.address}`;
        expect((await t.request("GET", history)).status).toBe(503);
        await sleep(2_500); // the deliveries end while the server is away: their writes fail
      } finally {
        await pg.startServer();
      }
      const deadline = Date.now() + 30_000;
      let statuses: Wire[] = [];
      do {
        await sleep(100);
        statuses = await Promise.all(flows.map((f) => t.status(f.intent.intent_id)));
      } while (statuses.some((s) => s.status !== "Fulfilled") && Date.now() < deadline);
      expect(
        statuses.map((s) => s.status),
        record.text(),
      ).toEqual(["Fulfilled", "Fulfilled", "Fulfilled"]);
      for (const { recipient, intent } of flows) {
        const balance = await t.request(
          "GET",
          `/sandbox/balance?network_id=5&address=${recipient.address}&token=USDC`,
        );
        // Paid once: within the quote's bounds (a second payment would double it).
        const status = await t.status(intent.intent_id);
        expect(BigInt(balance.body.balance_lots)).toBeGreaterThanOrEqual(BigInt(status.min_dest_amount_lots));
        expect(BigInt(balance.body.balance_lots)).toBeLessThanOrEqual(BigInt(status.max_dest_amount_lots));
      }
      expect(record.text()).toContain("unavailable");
      expect(record.text()).toContain("resolver lock taken again");
      expect(record.text()).not.toContain(pg.password);
    } finally {
      await t.close();
    }
  }, 60_000);
});

describe("SIGKILL mid-flow, restart on the same database", () => {
  test("nothing lost, nobody paid twice; the killed holder's lock is free at once (--no-wait starts)", async () => {
    const url = await freshDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), "sandbox-pg-kill-"));
    try {
      const args = [
        "--port",
        "0",
        "--data-dir",
        dataDir,
        "--database-url",
        url,
        "--dev",
        "--quote-ttl",
        "600",
      ];
      const first = await spawnSandbox({
        args: [...args, "--resolver-interval", "50"],
        env: { TEST_LEG_DELIVER_DELAY_MS: "4000" },
      });
      running.push(first);
      const call = async (base: string, method: string, path: string, body?: unknown) => {
        const r = await fetch(`${base}${path}`, {
          method,
          headers: { "x-api-key": "pg-kill", "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: r.status, body: (await r.json()) as Wire };
      };
      const tokens = (await call(first.url, "GET", "/affiliate/v1/tokens?limit=100")).body.data as Wire[];
      const usdc = (n: number) =>
        tokens.find((t) => t.network_id === n && t.symbol === "USDC").contract_address;
      const user = createTestWallet();
      const recipient = createTestWallet();
      await call(first.url, "POST", "/sandbox/faucet", {
        network_id: 1,
        address: user.address,
        token: "USDC",
        amount: 1000,
      });
      const quoteBody = {
        source_chain: 1,
        source_token: usdc(1),
        dest_chain: 5,
        dest_token: usdc(5),
        amount: 42,
        slippage_bps: "30",
        swap_type: "standard",
      };
      const spare = (await call(first.url, "POST", "/affiliate/v1/quotes/best", quoteBody)).body;
      const used = (await call(first.url, "POST", "/affiliate/v1/quotes/best", quoteBody)).body;
      const intentBody = (quoteId: string) => ({
        quote_id: quoteId,
        refund_address: user.address,
        user_source_address: user.address,
        user_destination_address: recipient.address,
      });
      const moving = (await call(first.url, "POST", "/affiliate/v1/intents", intentBody(used.id))).body;
      const approval = signTestApproval({ wallet: user, intent: moving as never });
      expect(
        (await call(first.url, "POST", `/affiliate/v1/intents/${moving.intent_id}/approvals`, approval))
          .status,
      ).toBe(200);
      const statusPath = `/affiliate/v1/intents/${moving.intent_id}/status`;
      while ((await call(first.url, "GET", statusPath)).body.status !== "UserDeposited") await sleep(50);
      await sleep(800); // the leg has booked the delivery and holds the call open: the database write is yet to come
      const balancePath = `/sandbox/balance?network_id=5&address=${recipient.address}&token=USDC`;
      expect((await call(first.url, "GET", balancePath)).body.balance_lots).toBe("42000000");
      await first.kill("SIGKILL");

      const second = await spawnSandbox({ args: [...args, "--resolver-interval", "50", "--no-wait"] });
      running.push(second);
      const deadline = Date.now() + 30_000;
      while ((await call(second.url, "GET", statusPath)).body.status !== "Fulfilled" && Date.now() < deadline)
        await sleep(50);
      expect((await call(second.url, "GET", statusPath)).body.status).toBe("Fulfilled");
      expect((await call(second.url, "GET", balancePath)).body.balance_lots).toBe("42000000");
      const sourceBalance = `/sandbox/balance?network_id=1&address=${user.address}&token=USDC`;
      expect((await call(second.url, "GET", sourceBalance)).body.balance_lots).toBe(
        String(1000_000000 - 42_000000),
      );
      expect((await call(second.url, "POST", "/affiliate/v1/intents", intentBody(used.id))).body.type).toBe(
        "QUOTE_ALREADY_USED",
      );
      expect((await call(second.url, "POST", "/affiliate/v1/intents", intentBody(spare.id))).status).toBe(
        200,
      );
      await second.kill("SIGTERM");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
