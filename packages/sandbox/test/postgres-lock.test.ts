import { randomUUID } from "node:crypto";
import { Agent, request as httpRequest } from "node:http";
import { listWaitsRunOut } from "@swapintent/testing/listWaitsRunOut";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createStore } from "../src/db/createStore.js";
import { isDatabaseError } from "../src/db/databaseError.js";
import type { IntentRow } from "../src/db/intentRow.js";
import { openSandboxDatabase } from "../src/db/openSandboxDatabase.js";
import { startSandbox } from "../src/index.js";
import { advanceIntent } from "../src/resolver/advanceIntent.js";
import type { Core } from "../src/service/core.js";
import { createTestLegFactory, createTestWallet, signTestApproval } from "./support/createTestLeg.js";
import { startTestSandbox, type TestSandbox, type Wire } from "./support/harness.js";
import { type SpawnedSandbox, spawnSandbox } from "./support/spawnSandbox.js";
import { startPostgres, type TestPostgres } from "./support/startPostgres.js";
import { testIntentRow } from "./support/testIntentRow.js";

// The single-resolver rule under abuse: one PostgreSQL server for the file, a database per test.
let server: TestPostgres;
let admin: pg.Client;
let databases = 0;
const children: SpawnedSandbox[] = [];
beforeAll(async () => {
  server = await startPostgres();
  admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
});
afterAll(async () => {
  for (const child of children) child.child.kill("SIGCONT");
  await Promise.all(children.map((child) => child.kill()));
  await admin?.end();
  await server?.stop();
});
const freshDatabase = () => server.createDatabase(`lock_${++databases}`);

/** Resolves once `condition` holds, polling on timers (no fixed sleep decides an outcome). */
async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
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

/** The backend pids connected to database `url`. */
async function backendPids(url: string): Promise<number[]> {
  const r = await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1", [
    new URL(url).pathname.slice(1),
  ]);
  return r.rows.map((row) => row.pid);
}

/** Every intent row as the database holds it (status and step), by id. */
async function storedIntents(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query<{ id: string; status: string; pending_step: string | null }>(
      "SELECT id, status, pending_step FROM intents ORDER BY seq",
    );
    return r.rows;
  } finally {
    await client.end();
  }
}

function recordLog() {
  const lines: string[] = [];
  return { lines, log: (line: string) => void lines.push(line), text: () => lines.join("\n") };
}

describe("the single-resolver rule holds when the lock's connection is killed", () => {
  test("the sandbox that lost the lock writes nothing once another took it over (503), and the new holder's cache matches the database", async () => {
    const url = await freshDatabase();
    const logA = recordLog();
    const a = await startTestSandbox({ databaseUrl: url, log: logA.log });
    let b: TestSandbox | undefined;
    try {
      const { intent, wallet } = await a.createIntent();
      const before = new Set(await backendPids(url));
      const logB = recordLog();
      const startingB = startTestSandbox({ databaseUrl: url, log: logB.log });
      await until(() => logB.text().includes("waiting for it to stop"), "B to wait for the lock");
      const ofB = (await backendPids(url)).filter((pid) => !before.has(pid));
      // Kill the holder until B holds the lock (A, reconnecting, may take it back first).
      await until(async () => {
        const holder = await lockHolderPid(url);
        if (holder !== undefined && ofB.includes(holder)) return true;
        if (holder !== undefined) await admin.query("SELECT pg_terminate_backend($1)", [holder]);
        return false;
      }, "B to take the lock");
      b = await startingB;
      expect((await b.status(intent.intent_id)).status).toBe("Initiated"); // B caches it
      // A lost the lock: whatever it is asked to write now is refused, never written beside B.
      const approval = await a.approve(intent, wallet);
      expect(approval.status).toBe(503);
      expect((await a.quote({ amount: 5 })).status).toBe(503);
      expect((await storedIntents(url)).map((r) => r.status)).toEqual(["Initiated"]);
      expect((await b.status(intent.intent_id)).status).toBe("Initiated");
      // B, the holder, writes: its answer and the database agree. (B's engines are its own: fund the wallet there.)
      const faucet = {
        network_id: 1,
        address: wallet.address,
        token: await b.token(1, "USDC"),
        amount: 1_000,
      };
      expect((await b.request("POST", "/sandbox/faucet", faucet)).status).toBe(200);
      const approved = await b.approve(intent, wallet);
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      expect((await storedIntents(url)).map((r) => r.status)).toEqual(["ApprovalAdded"]);
      await until(() => logA.text().includes("took the resolver lock; this one stays paused"), "A to say so");
    } finally {
      await b?.close();
      await a.close();
    }
  }, 60_000);

  test("two sandboxes started at the same instant with --no-wait: exactly one starts, the other is SANDBOX_DATABASE_LOCKED", async () => {
    const url = await freshDatabase();
    const start = () =>
      startSandbox({
        port: 0,
        log: () => {},
        databaseUrl: url,
        waitForDatabaseLock: false,
        legs: createTestLegFactory(),
      });
    const outcomes = await Promise.allSettled([start(), start(), start()]);
    const started = outcomes.flatMap((o) => (o.status === "fulfilled" ? [o.value] : []));
    const refused = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason as unknown] : []));
    try {
      expect(started).toHaveLength(1);
      expect(refused.map((e) => isDatabaseError(e, "SANDBOX_DATABASE_LOCKED"))).toEqual([true, true]);
      expect(await lockHolderPid(url)).toBeDefined();
    } finally {
      await Promise.all(started.map((s) => s.close()));
    }
  }, 60_000);
});

describe("a lock holder that hangs (stopped, not dead: its session stays open)", () => {
  test("a waiting sandbox gives up after --lock-timeout with SANDBOX_DATABASE_LOCKED naming the holder; once the holder's session is ended another starts, and the holder, resumed, writes nothing", async () => {
    const url = await freshDatabase();
    const holder = await spawnSandbox({ args: ["--port", "0", "--database-url", url, "--quote-ttl", "600"] });
    children.push(holder);
    const quoteOf = async (base: string) => {
      const tokens = (await (
        await fetch(`${base}/affiliate/v1/tokens?limit=100`, { headers: { "x-api-key": "k" } })
      ).json()) as {
        data: { network_id: number; symbol: string; contract_address: string }[];
      };
      const usdc = (n: number) =>
        tokens.data.find((t) => t.network_id === n && t.symbol === "USDC")!.contract_address;
      return fetch(`${base}/affiliate/v1/quotes/best`, {
        method: "POST",
        headers: { "x-api-key": "k", "content-type": "application/json" },
        body: JSON.stringify({
          source_chain: 1,
          source_token: usdc(1),
          dest_chain: 5,
          dest_token: usdc(5),
          amount: 3,
          slippage_bps: "50",
          swap_type: "standard",
        }),
      });
    };
    expect((await quoteOf(holder.url)).status).toBe(200);
    holder.child.kill("SIGSTOP");
    try {
      const log = recordLog();
      let outcome: unknown;
      const lockWaits = await listWaitsRunOut({
        setIn: "acquireResolverLock.ts",
        run: async () => {
          outcome = await startSandbox({
            port: 0,
            log: log.log,
            databaseUrl: url,
            databaseLockTimeoutSecs: 1,
            legs: createTestLegFactory(),
          }).then(
            async (s) => {
              await s.close();
              return new Error("started beside a holder");
            },
            (error: unknown) => error,
          );
        },
      });
      if (!isDatabaseError(outcome, "SANDBOX_DATABASE_LOCKED")) throw outcome;
      expect(outcome.details.holder).toContain(`pid=${holder.child.pid}`);
      expect(outcome.details.waitedSecs).toBe(1);
      // it waited for the holder before giving up (at least one poll's wait ran out), not refused at once
      expect(lockWaits.length).toBeGreaterThan(0);
      expect(outcome.message).toContain("--lock-timeout");
      expect(log.text()).toContain("of at most 1 s, --lock-timeout");
      expect(`${outcome.message}${JSON.stringify(outcome)}${log.text()}`).not.toContain(server.password);

      // An operator ends the stopped holder's session: the lock is free, a new sandbox starts at once.
      await admin.query("SELECT pg_terminate_backend($1)", [await lockHolderPid(url)]);
      const taker = await startTestSandbox({ databaseUrl: url, waitForDatabaseLock: false });
      try {
        holder.child.kill("SIGCONT");
        // Resumed, the old holder finds its writer gone and the lock taken: it answers 503 and writes nothing.
        await until(() => holder.stderr().includes("took the resolver lock"), "the old holder to notice");
        expect((await quoteOf(holder.url)).status).toBe(503);
        expect((await taker.quote({ amount: 4 })).status).toBe(200);
      } finally {
        await taker.close();
      }
    } finally {
      holder.child.kill("SIGCONT");
    }
  }, 90_000);
});

describe("the resolver calls no leg without a write on the lock's connection just before it", () => {
  /** A store on a fresh server database (with its lock), a Fulfilled intent whose claim is recorded, a counting leg. */
  async function claimPending() {
    const url = await freshDatabase();
    const opened = await openSandboxDatabase({ databaseUrl: url, log: () => {} });
    const store = createStore({ db: opened.db, gate: opened.gate });
    const quoteId = randomUUID();
    await store.insertQuote({
      id: quoteId,
      wire: { id: quoteId },
      expiryMs: 1,
      retailUserId: null,
      usedByIntent: null,
      createdAtMs: 1,
      partnerId: "p",
    });
    const row = fulfilledRow(quoteId);
    expect(await store.insertIntentFromQuote(row, { partnerId: "p" })).toBe(true);
    const claims: string[] = [];
    const leg = {
      claim: async (intent: { intentId: string }) => {
        claims.push(intent.intentId);
        return { txHash: "0xclaim" };
      },
    };
    const core = {
      store,
      clock: { nowMs: () => 1_000 },
      legs: new Map([
        [1, leg],
        [5, leg],
      ]),
      faults: { fail_delivery: false, decline_all: false },
      log: () => {},
    } as unknown as Core;
    return { url, opened, store, row, claims, core };
  }

  test("a recorded step (the claim) after the lock was lost: refused (lock_lost), the leg never called; once the lock is back it is claimed once", async () => {
    const { url, opened, row, claims, core } = await claimPending();
    try {
      await admin.query("SELECT pg_terminate_backend($1)", [await lockHolderPid(url)]);
      await until(() => !opened.gate.held(), "the loss to be noticed");
      const outcome = await advanceIntent({ core, row }).catch((error: unknown) => error);
      expect(isDatabaseError(outcome, "SANDBOX_DATABASE_UNAVAILABLE") && outcome.details.driverCode).toBe(
        "lock_lost",
      );
      expect(claims).toEqual([]);
      await until(() => opened.gate.held(), "the lock to be taken again");
      const next = await advanceIntent({ core, row });
      expect([next?.pendingStep, next?.swapTx, claims]).toEqual([null, "0xclaim", [row.id]]);
    } finally {
      await opened.close();
    }
  }, 30_000);

  test("a recorded step on a row another sandbox changed since it was read: the leg is not called", async () => {
    const { opened, row, claims, core } = await claimPending();
    try {
      // Another sandbox (while it held the lock) claimed and cleared the step; this one still holds the old row.
      await opened.db.query("UPDATE intents SET pending_step = NULL, swap_tx = '0xother' WHERE id = $1", [
        row.id,
      ]);
      expect(await advanceIntent({ core, row })).toBeUndefined();
      expect(claims).toEqual([]);
    } finally {
      await opened.close();
    }
  }, 30_000);
});

function fulfilledRow(quoteId: string): IntentRow {
  return testIntentRow(quoteId, {
    status: "Fulfilled",
    pendingStep: "claim",
    deliveredAmountLots: "100",
    userDepositTx: "0xdeposit",
    fulfillTx: "0xfulfil",
    userDepositedAtMs: 1,
    fulfilledAtMs: 1,
  });
}

describe("503 under writer kills, over one keep-alive socket", () => {
  /** One request on `agent`; resolves with the status, the body and whether the socket was reused. */
  function send(agent: Agent, port: number, method: string, path: string, body?: unknown) {
    return new Promise<{ status: number; body: Wire; reused: boolean; close: boolean }>((resolve, reject) => {
      const text = body === undefined ? undefined : JSON.stringify(body);
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port,
          method,
          path,
          agent,
          headers: { "x-api-key": "test-key", "content-type": "application/json" },
        },
        (res) => {
          let data = "";
          res.on("data", (chunk: Buffer) => {
            data += chunk.toString();
          });
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              body: data === "" ? undefined : JSON.parse(data),
              reused: req.reusedSocket,
              close: res.headers.connection === "close",
            }),
          );
        },
      );
      req.on("error", reject);
      req.end(text);
    });
  }

  test("every write answered 503 left nothing half-written (an intent and its quote's mark together or neither; an approval whole or not at all), and the socket carried the next request", async () => {
    const url = await freshDatabase();
    const t = await startTestSandbox({ databaseUrl: url });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const port = t.sandbox.port;
      const wallet = createTestWallet();
      const recipient = createTestWallet();
      const usdc1 = await t.token(1, "USDC");
      expect(
        (
          await t.request("POST", "/sandbox/faucet", {
            network_id: 1,
            address: wallet.address,
            token: usdc1,
            amount: 1e6,
          })
        ).status,
      ).toBe(200);
      const answers: { status: number; reused: boolean; close: boolean }[] = [];
      const created: Wire[] = [];
      const attempted: { quoteId: string; status: number }[] = [];
      for (let i = 0; i < 12; i++) {
        // A quote once the sandbox writes again (it retakes the lock after a kill).
        let quote = await t.quote({ amount: 1 + i });
        await until(async () => {
          if (quote.status === 200) return true;
          quote = await t.quote({ amount: 1 + i });
          return false;
        }, "a quote to be stored again");
        // Kill the writer at the same moment as the write (every other round), so some land mid-statement, some
        // before the lock is taken again (lock_lost), some after.
        const kill =
          i % 2 === 0
            ? lockHolderPid(url).then((pid) => admin.query("SELECT pg_terminate_backend($1)", [pid]))
            : undefined;
        const intent = await send(agent, port, "POST", "/affiliate/v1/intents", {
          quote_id: quote.body.id,
          refund_address: wallet.address,
          user_source_address: wallet.address,
          user_source_public_key: wallet.publicKeyHex,
          user_destination_address: recipient.address,
        });
        await kill;
        answers.push(intent);
        attempted.push({ quoteId: quote.body.id, status: intent.status });
        expect([200, 503], JSON.stringify(intent.body)).toContain(intent.status);
        if (intent.status === 200) created.push(intent.body);
        else expect(intent.body.type).toBe("SERVICE_UNAVAILABLE");
      }
      for (const [i, intent] of created.entries()) {
        await until(async () => (await t.quote({ amount: 1 })).status === 200, "the sandbox to write again");
        const kill =
          i % 2 === 0
            ? lockHolderPid(url).then((pid) => admin.query("SELECT pg_terminate_backend($1)", [pid]))
            : undefined;
        const approval = await send(
          agent,
          port,
          "POST",
          `/affiliate/v1/intents/${intent.intent_id}/approvals`,
          signTestApproval({ wallet, intent }),
        );
        await kill;
        answers.push(approval);
        expect([200, 503], JSON.stringify(approval.body)).toContain(approval.status);
      }
      // Both outcomes happened, and after every 503 the agent's next request went over the same socket.
      const statuses = answers.map((a) => a.status);
      expect(statuses).toContain(503);
      expect(statuses).toContain(200);
      for (const [i, a] of answers.entries()) {
        expect(a.close).toBe(false);
        if (i > 0) expect(a.reused, `request ${i}`).toBe(true);
      }
      // The database: every quote marked used has exactly its intent, every intent its quote's mark; a 503 on
      // create left the quote unused (or, outcome unknown, wholly used); every stored intent is whole.
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      try {
        const quotes = await db.query<{ id: string; used_by_intent: string | null }>(
          "SELECT id, used_by_intent FROM quotes",
        );
        const intents = await db.query<{ id: string; quote_id: string; status: string; leg_data: unknown }>(
          "SELECT id, quote_id, status, leg_data FROM intents",
        );
        const intentOfQuote = new Map(intents.rows.map((r) => [r.quote_id, r]));
        for (const q of quotes.rows) expect(intentOfQuote.get(q.id)?.id ?? null, q.id).toBe(q.used_by_intent);
        for (const { quoteId, status } of attempted)
          if (status === 200) expect(intentOfQuote.has(quoteId)).toBe(true);
        for (const row of intents.rows) {
          expect(["Initiated", "ApprovalAdded"]).toContain(row.status);
          // An approval is stored with its verified signature in the same statement as the status.
          const signed = (row.leg_data as { signature?: unknown }).signature !== undefined;
          expect(signed, row.id).toBe(row.status === "ApprovalAdded");
        }
      } finally {
        await db.end();
      }
    } finally {
      agent.destroy();
      await t.close();
    }
  }, 90_000);
});

describe("a database server that hangs (its backends stopped, the sockets open)", () => {
  test("a write and a read fail as SANDBOX_DATABASE_UNAVAILABLE after the statement timeout instead of hanging; once the server runs again, writes work again", async () => {
    const url = await freshDatabase();
    const log = recordLog();
    const opened = await openSandboxDatabase({ databaseUrl: url, log: log.log, statementTimeoutMs: 500 });
    const stopped: number[] = [];
    try {
      await opened.db.read("SELECT 1"); // a reader connection exists
      const backends = await backendPids(url);
      for (const pid of backends) {
        process.kill(pid, "SIGSTOP");
        stopped.push(pid);
      }
      let write: unknown;
      let read: unknown;
      const failedOn = await listWaitsRunOut({
        run: async () => {
          [write, read] = await Promise.all([
            opened.db.query("INSERT INTO meta (key, value) VALUES ('frozen', 'x')").catch((e: unknown) => e),
            opened.db.read("SELECT count(*) FROM intents").catch((e: unknown) => e),
          ]);
        },
      });
      // each ended by its 500 ms statement timeout, and no longer wait ran out
      expect(failedOn.filter((ms) => ms >= 500)).toEqual([500, 500]);
      for (const outcome of [write, read])
        expect(isDatabaseError(outcome, "SANDBOX_DATABASE_UNAVAILABLE")).toBe(true);
      for (const pid of stopped.splice(0)) process.kill(pid, "SIGCONT");
      await until(() => opened.gate.held() && opened.gate.generation() === 2, "the lock to be taken again");
      await opened.db.query("INSERT INTO meta (key, value) VALUES ('thawed', 'x')");
      // ('frozen' may be stored or not: the stopped backend had the statement in its socket when it was cut off,
      // so the error said its outcome is unknown.)
      expect((await opened.db.read("SELECT value FROM meta WHERE key = 'thawed'")).rows).toEqual([
        { value: "x" },
      ]);
      // Closing while the server hangs again ends too (it does not wait for an answer that never comes).
      for (const pid of await backendPids(url)) {
        process.kill(pid, "SIGSTOP");
        stopped.push(pid);
      }
      const closedOn = await listWaitsRunOut({ run: () => opened.close() });
      // ended by the close's 2 s wait for a hung server (CLOSE_WAIT_MS), then its connection dropped
      expect(closedOn.filter((ms) => ms > 1_000)).toEqual([2_000]);
    } finally {
      for (const pid of stopped) process.kill(pid, "SIGCONT");
      await opened.close();
    }
  }, 60_000);
});
