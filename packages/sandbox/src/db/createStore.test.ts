import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startPostgres, type TestPostgres } from "../../test/support/startPostgres.js";
import { testIntentRow as intentRow } from "../../test/support/testIntentRow.js";
import { createStore, type Store } from "./createStore.js";
import type { IntentRow, IntentStatusName } from "./intentRow.js";
import { MIGRATIONS } from "./migrations.js";
import { openDatabase } from "./openDatabase.js";
import { openSandboxDatabase } from "./openSandboxDatabase.js";
import type { SqlDatabase } from "./sqlDatabase.js";

const PARTNER = "partner-a";
let db: SqlDatabase;
let store: Store;

// Every test runs on both backends: PGlite, and a PostgreSQL server this file starts (one server, one fresh
// database per store under test).
type Backend = "PGlite" | "PostgreSQL server";
let server: TestPostgres | undefined;
let databases = 0;
afterAll(() => server?.stop());

/** A fresh, migrated database on `backend`; `close` also releases a server database's resolver lock. */
async function openFresh(backend: Backend): Promise<SqlDatabase> {
  if (backend === "PGlite") return openDatabase({ dir: undefined });
  server ??= await startPostgres();
  const url = await server.createDatabase(`store_${++databases}`);
  const opened = await openSandboxDatabase({ databaseUrl: url, log: () => {} });
  return { ...opened.db, close: opened.close };
}

describe.each<Backend>(["PGlite", "PostgreSQL server"])("store on %s", (backend) => {
  beforeAll(async () => {
    db = await openFresh(backend);
    store = createStore({ db });
  });
  afterAll(() => db?.close());

  const quote = (id = randomUUID()) => ({
    id,
    wire: { id },
    expiryMs: 1_000,
    retailUserId: null,
    usedByIntent: null,
    createdAtMs: 1,
    partnerId: PARTNER,
  });

  async function newIntent(overrides: Partial<IntentRow> = {}): Promise<IntentRow> {
    const q = quote();
    await store.insertQuote(q);
    const row = intentRow(q.id, overrides);
    expect(await store.insertIntentFromQuote(row, { partnerId: PARTNER })).toBe(true);
    return row;
  }

  /** What the database itself holds, bypassing the store's cache. */
  async function statusInDb(id: string): Promise<string | undefined> {
    return (await db.query<{ status: string }>("SELECT status FROM intents WHERE id = $1", [id])).rows[0]
      ?.status;
  }

  describe("quote group commit", () => {
    test("300 concurrent quotes are all stored; each caller resolves only once its row is in the database", async () => {
      const quotes = Array.from({ length: 300 }, () => quote());
      await Promise.all(
        quotes.map(async (q) => {
          await store.insertQuote(q);
          expect((await store.getQuote(q.id, PARTNER))?.id).toBe(q.id);
        }),
      );
      const ids = quotes.map((q) => q.id);
      const n = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM quotes WHERE id = ANY($1)", [
        ids,
      ]);
      expect(n.rows[0]?.n).toBe(300);
    });

    test("quotes that arrive together share INSERT statements (group commit)", async () => {
      const spyDb = await openFresh(backend);
      try {
        let inserts = 0;
        const query = spyDb.query.bind(spyDb);
        spyDb.query = ((sql: string, ...rest: unknown[]) => {
          if (sql.startsWith("INSERT INTO quotes")) inserts++;
          return (query as (...a: unknown[]) => unknown)(sql, ...rest);
        }) as typeof spyDb.query;
        const spyStore = createStore({ db: spyDb });
        await Promise.all(Array.from({ length: 64 }, () => spyStore.insertQuote(quote())));
        expect(inserts).toBeGreaterThan(0);
        expect(inserts).toBeLessThanOrEqual(2);
        const n = await spyDb.query<{ n: number }>("SELECT count(*)::int AS n FROM quotes");
        expect(n.rows[0]?.n).toBe(64);
      } finally {
        await spyDb.close();
      }
    });

    test("a quote that cannot be stored (duplicate id) fails alone; the others in its batch are stored", async () => {
      const existing = quote();
      await store.insertQuote(existing);
      const others = Array.from({ length: 20 }, () => quote());
      const results = await Promise.allSettled([
        ...others.slice(0, 10).map((q) => store.insertQuote(q)),
        store.insertQuote({ ...existing }),
        ...others.slice(10).map((q) => store.insertQuote(q)),
      ]);
      expect(results.filter((r) => r.status === "rejected")).toHaveLength(1);
      expect(results[10]?.status).toBe("rejected");
      for (const q of others) expect((await store.getQuote(q.id, PARTNER))?.id).toBe(q.id);
    });

    test("when the database fails every statement, every waiter of the batch is rejected; later quotes are stored", async () => {
      // the real database behind a switch: while `failing`, each INSERT INTO quotes is refused as a full disk would
      let failing = true;
      let refused = 0;
      const flaky = new Proxy(db, {
        get(target, key) {
          if (key !== "query") return Reflect.get(target, key);
          return (sql: string, params?: unknown[]) => {
            if (failing && sql.startsWith("INSERT INTO quotes")) {
              refused++;
              return Promise.reject(new Error("could not extend file: No space left on device"));
            }
            return target.query(sql, params);
          };
        },
      });
      const flakyStore = createStore({ db: flaky });
      const lost = Array.from({ length: 30 }, () => quote());
      const results = await Promise.allSettled(lost.map((q) => flakyStore.insertQuote(q)));
      expect(results.map((r) => r.status)).toEqual(Array(30).fill("rejected"));
      expect(refused).toBeGreaterThan(30); // the batch, then each row alone
      for (const q of lost) expect(await flakyStore.getQuote(q.id, PARTNER)).toBeUndefined();
      failing = false;
      const later = Array.from({ length: 5 }, () => quote());
      await Promise.all(later.map((q) => flakyStore.insertQuote(q)));
      for (const q of later) expect((await flakyStore.getQuote(q.id, PARTNER))?.id).toBe(q.id);
    });
  });

  describe("status cache", () => {
    test("a rolled-back insert and a failed update leave the cached status as the database has it", async () => {
      const row = await newIntent();
      expect((await store.getStatus(row.id, PARTNER))?.status).toBe("Initiated");
      // an intent with the same id from another quote: the INSERT fails, the transaction (quote claim included) rolls back
      const other = quote();
      await store.insertQuote(other);
      await expect(
        store.insertIntentFromQuote(
          { ...intentRow(other.id), id: row.id, status: "Fulfilled" },
          { partnerId: PARTNER },
        ),
      ).rejects.toThrow();
      expect((await store.getQuote(other.id, PARTNER))?.usedByIntent).toBeNull();
      expect(await statusInDb(row.id)).toBe("Initiated");
      expect((await store.getStatus(row.id, PARTNER))?.status).toBe("Initiated");
      expect((await store.getStatus(row.id, PARTNER))?.sourceAmountLots).toBe(row.sourceAmountLots);

      // an update the database refuses: the cache keeps what the database still holds
      const failing = createStore({
        db: new Proxy(db, {
          get(target, key) {
            if (key !== "query") return Reflect.get(target, key);
            return (sql: string, params?: unknown[]) =>
              sql.startsWith("UPDATE intents")
                ? Promise.reject(new Error("could not write block: I/O error"))
                : target.query(sql, params);
          },
        }),
      });
      expect((await failing.getStatus(row.id, PARTNER))?.status).toBe("Initiated"); // cached by this store
      await expect(
        failing.updateIntent({
          id: row.id,
          expectedStatus: "Initiated",
          changes: { status: "ApprovalAdded" },
        }),
      ).rejects.toThrow();
      await expect(failing.expireOverdue(Number.MAX_SAFE_INTEGER)).rejects.toThrow();
      expect((await failing.getStatus(row.id, PARTNER))?.status).toBe("Initiated");
      expect(await statusInDb(row.id)).toBe("Initiated");
    });

    test("every write shows at once: insert, compare-and-set updates, the expiry sweep", async () => {
      const row = await newIntent();
      expect((await store.getStatus(row.id, PARTNER))?.status).toBe("Initiated");
      const steps: IntentStatusName[] = ["ApprovalAdded", "Accepted", "UserDeposited", "Fulfilled"];
      let expected: IntentStatusName = "Initiated";
      for (const next of steps) {
        const r = await store.updateIntent({
          id: row.id,
          expectedStatus: expected,
          changes: { status: next },
        });
        expect(r.updated).toBe(true);
        expected = next;
        expect((await store.getStatus(row.id, PARTNER))?.status).toBe(next);
        expect(await statusInDb(row.id)).toBe(next);
      }
      // A compare-and-set that does not apply changes nothing, in the cache either.
      const stale = await store.updateIntent({
        id: row.id,
        expectedStatus: "Accepted",
        changes: { status: "Declined" },
      });
      expect(stale.updated).toBe(false);
      expect((await store.getStatus(row.id, PARTNER))?.status).toBe("Fulfilled");

      const abandoned = await newIntent({ deadlineSecs: 10 });
      expect((await store.getStatus(abandoned.id, PARTNER))?.status).toBe("Initiated");
      expect(await store.expireOverdue(20_000)).toBeGreaterThanOrEqual(1);
      expect((await store.getStatus(abandoned.id, PARTNER))?.status).toBe("Expired");
      expect(await statusInDb(abandoned.id)).toBe("Expired");
    });

    test("reads racing writes never return a status older than one a finished write already set", async () => {
      const row = await newIntent();
      const order: IntentStatusName[] = [
        "Initiated",
        "ApprovalAdded",
        "Accepted",
        "UserDeposited",
        "Fulfilled",
      ];
      let committed = 0; // index in `order` of the last write that finished
      const violations: string[] = [];
      let done = false;
      const reader = async () => {
        while (!done) {
          const floor = committed;
          const seen = (await store.getStatus(row.id, PARTNER))?.status as IntentStatusName;
          if (order.indexOf(seen) < floor) violations.push(`${seen} after ${order[floor]}`);
          // A cached read resolves without I/O: yield so the writer's timers run.
          await new Promise((resolve) => setImmediate(resolve));
        }
      };
      const readers = Array.from({ length: 6 }, reader);
      for (let i = 1; i < order.length; i++) {
        await store.updateIntent({
          id: row.id,
          expectedStatus: order[i - 1]!,
          changes: { status: order[i]! },
        });
        committed = i;
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      done = true;
      await Promise.all(readers);
      expect(violations).toEqual([]);
      expect((await store.getStatus(row.id, PARTNER))?.status).toBe("Fulfilled");
    });

    test("while the resolver lock is not held the cache answers nothing; a new lock generation drops it", async () => {
      let held = true;
      let generation = 1;
      const gated = createStore({ db, gate: { held: () => held, generation: () => generation } });
      const q = quote();
      await gated.insertQuote(q);
      const row = intentRow(q.id);
      await gated.insertIntentFromQuote(row, { partnerId: PARTNER });
      // another writer (another sandbox, while this one had lost the lock) changes the row behind the cache
      await db.query("UPDATE intents SET status = 'Declined' WHERE id = $1", [row.id]);
      expect((await gated.getStatus(row.id, PARTNER))?.status).toBe("Initiated"); // cached, lock held
      held = false;
      expect((await gated.getStatus(row.id, PARTNER))?.status).toBe("Declined");
      expect(await gated.listWork(10)).toEqual([]); // the resolver pauses
      expect(await gated.expireOverdue(Number.MAX_SAFE_INTEGER)).toBe(0);
      held = true;
      await db.query("UPDATE intents SET status = 'Expired' WHERE id = $1", [row.id]);
      expect((await gated.getStatus(row.id, PARTNER))?.status).toBe("Expired"); // dropped while not held
      await db.query("UPDATE intents SET status = 'Refunded' WHERE id = $1", [row.id]);
      expect((await gated.getStatus(row.id, PARTNER))?.status).toBe("Expired"); // cached again
      generation = 2;
      expect((await gated.getStatus(row.id, PARTNER))?.status).toBe("Refunded");
    });

    test("an unknown id is not cached as missing: it is found once inserted", async () => {
      const q = quote();
      await store.insertQuote(q);
      const row = intentRow(q.id);
      expect(await store.getStatus(row.id, PARTNER)).toBeUndefined();
      await store.insertIntentFromQuote(row, { partnerId: PARTNER });
      expect((await store.getStatus(row.id, PARTNER))?.status).toBe("Initiated");
    });
  });

  describe("status cache and partner scoping", () => {
    test("another partner's intent is not found, before and after it is cached; a row without partner is everyone's", async () => {
      const row = await newIntent();
      // A store that has not seen the row answers from the database; this one from the cache its insert filled.
      const fresh = createStore({ db });
      expect(await fresh.getStatus(row.id, "partner-b")).toBeUndefined();
      expect(await store.getStatus(row.id, "partner-b")).toBeUndefined();
      expect((await fresh.getStatus(row.id, PARTNER))?.status).toBe("Initiated");
      expect(await fresh.getStatus(row.id, "partner-b")).toBeUndefined(); // now from its cache too
      await store.updateIntent({
        id: row.id,
        expectedStatus: "Initiated",
        changes: { status: "ApprovalAdded" },
      });
      expect(await store.getStatus(row.id, "partner-b")).toBeUndefined();
      expect((await store.getStatus(row.id, PARTNER))?.status).toBe("ApprovalAdded");

      const legacy = await newIntent();
      await db.query("UPDATE intents SET partner_id = NULL WHERE id = $1", [legacy.id]);
      const another = createStore({ db }); // a store whose cache has not seen the row
      expect((await another.getStatus(legacy.id, "partner-b"))?.status).toBe("Initiated");
      expect((await another.getStatus(legacy.id, PARTNER))?.status).toBe("Initiated");
    });
  });

  describe("resolver work list", () => {
    test("never lists Initiated; a recorded step comes first, then the oldest; a deferred intent goes last", async () => {
      await db.query("UPDATE intents SET status = 'Expired', pending_step = NULL"); // a clean slate for this test
      const initiated = await newIntent();
      const older = await newIntent({ status: "ApprovalAdded" });
      const inFlight = await newIntent({ status: "UserDeposited", pendingStep: "deliver" });
      const newer = await newIntent({ status: "Accepted" });
      const ids = async () => (await store.listWork(10)).map((r) => r.id);
      expect(await ids()).toEqual([inFlight.id, older.id, newer.id]);
      expect(await ids()).not.toContain(initiated.id);
      await store.deferIntents({ ids: [inFlight.id], nowMs: 5_000 });
      await store.deferIntents({ ids: [older.id], nowMs: 4_000 });
      expect(await ids()).toEqual([newer.id, older.id, inFlight.id]);
      expect((await store.listWork(1)).map((r) => r.id)).toEqual([newer.id]);
      // First time only: an intent deferred before keeps its place; one never deferred goes behind the others.
      await store.deferIntents({ ids: [older.id, newer.id], nowMs: 6_000, firstTimeOnly: true });
      expect(await ids()).toEqual([older.id, inFlight.id, newer.id]);
    });
  });

  describe("quote pruning", () => {
    test("deletes expired quotes no intent used, at most `limit` a call, oldest first; never a quote an intent uses", async () => {
      const own = await openFresh(backend);
      try {
        const s = createStore({ db: own });
        const at = (expiryMs: number) => ({ ...quote(), expiryMs });
        const expired = [at(1_000), at(1_100), at(1_200), at(1_300), at(1_400)];
        const fresh = [at(5_000), at(6_000)];
        const used = at(900);
        for (const q of [...expired, ...fresh, used]) await s.insertQuote(q);
        expect(await s.insertIntentFromQuote(intentRow(used.id), { partnerId: PARTNER })).toBe(true);
        expect(await s.pruneQuotes(2_000, 3)).toBe(3);
        const left = async () =>
          (await own.query<{ id: string }>("SELECT id FROM quotes ORDER BY expiry_ms")).rows.map((r) => r.id);
        expect(await left()).toEqual([used.id, expired[3]!.id, expired[4]!.id, fresh[0]!.id, fresh[1]!.id]);
        expect(await s.pruneQuotes(2_000, 10)).toBe(2);
        expect(await s.pruneQuotes(2_000, 10)).toBe(0);
        expect(await left()).toEqual([used.id, fresh[0]!.id, fresh[1]!.id]);
      } finally {
        await own.close();
      }
    });
  });

  describe("housekeeping VACUUMs (PGlite has no autovacuum)", () => {
    test("pruning 1,000 quotes and deferring 2,000 times run a VACUUM that succeeds on this backend", async () => {
      const own = await openFresh(backend);
      const statements: string[] = [];
      const spied: SqlDatabase = {
        ...own,
        exec: async (sql) => {
          statements.push(sql);
          await own.exec(sql);
        },
      };
      try {
        const s = createStore({ db: spied });
        await Promise.all(Array.from({ length: 1_000 }, () => s.insertQuote(quote())));
        expect(await s.pruneQuotes(2_000, 1_000)).toBe(1_000);
        const q1 = quote();
        const q2 = quote();
        for (const q of [q1, q2]) await s.insertQuote(q);
        const rows = [intentRow(q1.id), intentRow(q2.id)];
        for (const row of rows) expect(await s.insertIntentFromQuote(row, { partnerId: PARTNER })).toBe(true);
        for (let i = 1; i <= 1_000; i++) await s.deferIntents({ ids: rows.map((r) => r.id), nowMs: i });
        expect(statements).toEqual(["VACUUM quotes", "VACUUM intents"]);
        expect((await s.listWork(10)).length).toBe(0); // Initiated: still readable after the VACUUMs
      } finally {
        await own.close();
      }
    });
  });

  describe("migration 3", () => {
    test("is idempotent: applying its SQL again changes nothing and fails nothing", async () => {
      const m3 = MIGRATIONS.find((m) => m.version === 3);
      expect(m3).toBeDefined();
      await db.exec(m3!.sql);
      const cols = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'intents' AND column_name = 'next_attempt_ms'",
      );
      expect(cols.rows[0]?.n).toBe(1);
    });
  });
});
