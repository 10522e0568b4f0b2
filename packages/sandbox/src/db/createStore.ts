import { randomBytes } from "node:crypto";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import type { Json } from "../legs/types.js";
import {
  INTENT_COLUMNS,
  type IntentRow,
  type IntentStatusName,
  readIntentRow,
  STATUS_COLUMNS_SQL,
  STATUS_FIELDS,
  type StatusRow,
  TERMINAL_STATUSES,
} from "./intentRow.js";

/** A stored quote. */
export interface QuoteRecord {
  id: string;
  wire: Record<string, Json>;
  expiryMs: number;
  retailUserId: string | null;
  usedByIntent: string | null;
}

/** Filters of the swap history. */
export interface HistoryQuery {
  /** Lower-cased wallet addresses; an intent matches when its source or destination address is one of them. */
  wallets: string[] | undefined;
  retailId: string | undefined;
  activeOnly: boolean;
  limit: number;
  offset: number;
}

/** The outcome of a compare-and-set update. */
export type UpdateResult = { updated: true; row: IntentRow } | { updated: false };

/** Every database access of the sandbox. Each method is one statement or one transaction. */
export interface Store {
  /** The sandbox master seed: generated on first start, then read back. Never log it. */
  loadMasterSeed(): Promise<Uint8Array>;
  /** The dev clock's offset (ms) over the base clock, kept across restarts. */
  loadClockOffsetMs(): Promise<number>;
  saveClockOffsetMs(offsetMs: number): Promise<void>;
  insertQuote(quote: QuoteRecord & { createdAtMs: number }): Promise<void>;
  getQuote(id: string): Promise<QuoteRecord | undefined>;
  /**
   * In one transaction: mark the quote used by this intent (only if no intent used it yet) and insert the intent.
   * Returns false, changing nothing, when another intent already used the quote.
   */
  insertIntentFromQuote(row: IntentRow): Promise<boolean>;
  getIntent(id: string): Promise<IntentRow | undefined>;
  /**
   * What the status endpoint shows of an intent (never the secret). Served from a write-through cache: this store
   * is the database's only writer and refreshes the cache with every row it writes.
   */
  getStatus(id: string): Promise<StatusRow | undefined>;
  /** Set `changes` on the intent if its status is still `expectedStatus` (and, when given, its pending step matches). */
  updateIntent(request: {
    id: string;
    expectedStatus: IntentStatusName;
    expectedPendingStep?: IntentRow["pendingStep"];
    changes: Partial<IntentRow>;
  }): Promise<UpdateResult>;
  /**
   * At most `limit` intents the resolver can move: a recorded pending step, or approved and not terminal
   * (`Initiated` intents wait for their user and are left to {@link Store.expireOverdue}). Those not tried
   * for longest come first (see {@link Store.deferIntent}), then the oldest.
   */
  listWork(limit: number): Promise<IntentRow[]>;
  /**
   * One statement: every `Initiated` or `ApprovalAdded` intent (no pending step) whose deadline is before
   * `nowMs` becomes `Expired`. Returns how many did.
   */
  expireOverdue(nowMs: number): Promise<number>;
  /** Move an intent the resolver could not advance behind the others in {@link Store.listWork}'s order. */
  deferIntent(id: string, nowMs: number): Promise<void>;
  listHistory(query: HistoryQuery): Promise<{ rows: StatusRow[]; total: number }>;
}

const META_SEED = "master_seed";
const META_CLOCK = "clock_offset_ms";
const TERMINAL_SQL = TERMINAL_STATUSES.map((s) => `'${s}'`).join(", ");

/** Status rows kept in memory at most (oldest dropped first). */
const STATUS_CACHE_SIZE = 50_000;
/** Quotes written in one INSERT at most. */
const QUOTE_BATCH = 128;

const pickStatus = (row: IntentRow): StatusRow =>
  Object.fromEntries(STATUS_FIELDS.map((f) => [f, row[f]])) as unknown as StatusRow;

/** Intent fields stored as jsonb. */
const JSONB_FIELDS = new Set<keyof IntentRow>(["paramsToSign", "legData"]);

/**
 * A value as a query parameter, with its placeholder. A jsonb value is sent as JSON text and cast in SQL
 * (`$n::text::jsonb`): PGlite's own jsonb parameter path costs about seven times more per insert.
 */
function toParam(field: keyof IntentRow, value: unknown, index: number): { value: unknown; sql: string } {
  if (JSONB_FIELDS.has(field))
    return {
      value: value === null || value === undefined ? null : JSON.stringify(value),
      sql: `$${index}::text::jsonb`,
    };
  return {
    value: value !== null && typeof value === "object" ? JSON.stringify(value) : value,
    sql: `$${index}`,
  };
}

/**
 * Create the store over an open database (see `openDatabase`).
 */
export function createStore({ db }: { db: PGlite }): Store {
  const readMeta = async (q: PGlite | Transaction, key: string) => {
    const r = await q.query<{ value: string }>("SELECT value FROM meta WHERE key = $1", [key]);
    return r.rows[0]?.value;
  };

  // Status cache. Writes that change status fields refresh it with the row the database returned. A read fills it
  // only when no intent write was in flight from its start to its end, so it never stores a stale row.
  const statusCache = new Map<string, StatusRow>();
  let writesStarted = 0;
  let writesFinished = 0;
  const cacheStatus = (id: string, row: StatusRow) => {
    statusCache.delete(id);
    statusCache.set(id, row);
    if (statusCache.size > STATUS_CACHE_SIZE) {
      const oldest = statusCache.keys().next().value;
      if (oldest !== undefined) statusCache.delete(oldest);
    }
  };
  const writing = async <T>(write: () => Promise<T>): Promise<T> => {
    writesStarted++;
    try {
      return await write();
    } finally {
      writesFinished++;
    }
  };

  // Quotes are inserted by group commit: the INSERT starts on the next turn of the event loop (after the requests
  // that arrived with this one have queued their quotes), and while it runs later quotes queue for the next one
  // (one statement for up to QUOTE_BATCH rows). Each caller still resolves only once its row is committed.
  type QueuedQuote = { quote: QuoteRecord & { createdAtMs: number }; done: (error?: unknown) => void };
  let quoteQueue: QueuedQuote[] = [];
  let flushingQuotes = false;
  const insertQuotes = async (batch: QueuedQuote[]) => {
    const params: unknown[] = [];
    const values = batch.map(({ quote }) => {
      params.push(
        quote.id,
        JSON.stringify(quote.wire),
        quote.expiryMs,
        quote.retailUserId,
        quote.createdAtMs,
      );
      const n = params.length;
      return `($${n - 4}, $${n - 3}::text::jsonb, $${n - 2}, $${n - 1}, NULL, $${n})`;
    });
    await db.query(
      `INSERT INTO quotes (id, wire, expiry_ms, retail_user_id, used_by_intent, created_at_ms) VALUES ${values.join(", ")}`,
      params,
    );
  };
  const flushQuotes = async () => {
    flushingQuotes = true;
    while (quoteQueue.length > 0) {
      const batch = quoteQueue.slice(0, QUOTE_BATCH);
      quoteQueue = quoteQueue.slice(QUOTE_BATCH);
      try {
        await insertQuotes(batch);
        for (const q of batch) q.done();
      } catch {
        // One bad row must not fail the others: retry them one by one.
        for (const q of batch) await insertQuotes([q]).then(() => q.done(), q.done);
      }
    }
    flushingQuotes = false;
  };

  /** Mark the quote used and insert the intent, in one transaction; false when the quote was already used. */
  const insertIntent = (row: IntentRow) =>
    db.transaction(async (tx) => {
      const claimed = await tx.query(
        "UPDATE quotes SET used_by_intent = $1 WHERE id = $2 AND used_by_intent IS NULL",
        [row.id, row.quoteId],
      );
      if (claimed.affectedRows !== 1) return false;
      const fields = Object.keys(INTENT_COLUMNS) as (keyof IntentRow)[];
      const columns = fields.map((f) => INTENT_COLUMNS[f]);
      const params = fields.map((f, i) => toParam(f, row[f], i + 1));
      await tx.query(
        `INSERT INTO intents (${columns.join(", ")}) VALUES (${params.map((p) => p.sql).join(", ")})`,
        params.map((p) => p.value),
      );
      return true;
    });

  return {
    async loadMasterSeed() {
      return db.transaction(async (tx) => {
        const existing = await readMeta(tx, META_SEED);
        if (existing) return Uint8Array.from(Buffer.from(existing, "hex"));
        const seed = randomBytes(32);
        await tx.query("INSERT INTO meta (key, value) VALUES ($1, $2)", [META_SEED, seed.toString("hex")]);
        return Uint8Array.from(seed);
      });
    },

    async loadClockOffsetMs() {
      const value = await readMeta(db, META_CLOCK);
      return value === undefined ? 0 : Number(value);
    },

    async saveClockOffsetMs(offsetMs) {
      await db.query(
        "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
        [META_CLOCK, String(offsetMs)],
      );
    },

    insertQuote(quote) {
      return new Promise<void>((resolve, reject) => {
        quoteQueue.push({ quote, done: (error) => (error === undefined ? resolve() : reject(error)) });
        if (!flushingQuotes) {
          flushingQuotes = true;
          setImmediate(() => void flushQuotes());
        }
      });
    },

    async getQuote(id) {
      const r = await db.query<{
        id: string;
        wire: Record<string, Json>;
        expiry_ms: number | bigint;
        retail_user_id: string | null;
        used_by_intent: string | null;
      }>("SELECT id, wire, expiry_ms, retail_user_id, used_by_intent FROM quotes WHERE id = $1", [id]);
      const row = r.rows[0];
      if (!row) return undefined;
      return {
        id: row.id,
        wire: row.wire,
        expiryMs: Number(row.expiry_ms),
        retailUserId: row.retail_user_id,
        usedByIntent: row.used_by_intent,
      };
    },

    async insertIntentFromQuote(row) {
      const inserted = await writing(() => insertIntent(row));
      if (inserted) cacheStatus(row.id, pickStatus(row));
      return inserted;
    },

    async getIntent(id) {
      const r = await db.query<Record<string, unknown>>("SELECT * FROM intents WHERE id = $1", [id]);
      return r.rows[0] ? readIntentRow(r.rows[0]) : undefined;
    },

    async getStatus(id) {
      const cached = statusCache.get(id);
      if (cached) return cached;
      const quiet = writesStarted === writesFinished;
      const startedBefore = writesStarted;
      const r = await db.query<Record<string, unknown>>(
        `SELECT ${STATUS_COLUMNS_SQL} FROM intents WHERE id = $1`,
        [id],
      );
      const row = r.rows[0] ? (readIntentRow(r.rows[0]) as StatusRow) : undefined;
      if (row && quiet && writesStarted === startedBefore) cacheStatus(id, row);
      return row;
    },

    async updateIntent({ id, expectedStatus, expectedPendingStep, changes }) {
      const fields = Object.keys(changes).filter((f) => f in INTENT_COLUMNS) as (keyof IntentRow)[];
      const params: unknown[] = [id, expectedStatus];
      const sets = fields.map((f) => {
        const param = toParam(f, changes[f], params.length + 1);
        params.push(param.value);
        return `${INTENT_COLUMNS[f]} = ${param.sql}`;
      });
      let where = "id = $1 AND status = $2";
      if (expectedPendingStep !== undefined) {
        if (expectedPendingStep === null) where += " AND pending_step IS NULL";
        else {
          params.push(expectedPendingStep);
          where += ` AND pending_step = $${params.length}`;
        }
      }
      const r = await writing(() =>
        db.query<Record<string, unknown>>(
          `UPDATE intents SET ${sets.join(", ")} WHERE ${where} RETURNING *`,
          params,
        ),
      );
      const updated = r.rows[0];
      if (!updated) return { updated: false };
      const row = readIntentRow(updated);
      cacheStatus(row.id, pickStatus(row));
      return { updated: true, row };
    },

    async listWork(limit) {
      const r = await db.query<Record<string, unknown>>(
        `SELECT * FROM intents WHERE pending_step IS NOT NULL
           OR status IN ('ApprovalAdded', 'Accepted', 'UserDeposited', 'RefundRquested')
         ORDER BY next_attempt_ms, seq LIMIT $1`,
        [limit],
      );
      return r.rows.map(readIntentRow);
    },

    async expireOverdue(nowMs) {
      // deadline_secs * 1000 < nowMs, written so the intents_expiry index applies.
      const r = await writing(() =>
        db.query<{ id: string }>(
          `UPDATE intents SET status = 'Expired', updated_at_ms = $1
           WHERE status IN ('Initiated', 'ApprovalAdded') AND pending_step IS NULL AND deadline_secs < $2
           RETURNING id`,
          [nowMs, Math.ceil(nowMs / 1000)],
        ),
      );
      for (const { id } of r.rows) {
        const cached = statusCache.get(id);
        if (cached) statusCache.set(id, { ...cached, status: "Expired" });
      }
      return r.rows.length;
    },

    async deferIntent(id, nowMs) {
      await db.query("UPDATE intents SET next_attempt_ms = $2 WHERE id = $1", [id, nowMs]);
    },

    async listHistory(query) {
      const params: unknown[] = [];
      const conditions: string[] = [];
      if (query.wallets && query.wallets.length > 0) {
        params.push(query.wallets);
        conditions.push(
          `(lower(user_source_address) = ANY($${params.length}) OR lower(user_destination_address) = ANY($${params.length}))`,
        );
      }
      if (query.retailId !== undefined) {
        params.push(query.retailId);
        conditions.push(`retail_user_id = $${params.length}`);
      }
      if (query.activeOnly) conditions.push(`status NOT IN (${TERMINAL_SQL})`);
      const where = conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : "";
      const total = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM intents ${where}`, params);
      const page = await db.query<Record<string, unknown>>(
        `SELECT ${STATUS_COLUMNS_SQL} FROM intents ${where} ORDER BY seq DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, query.limit, query.offset],
      );
      return { rows: page.rows.map(readIntentRow), total: total.rows[0]?.n ?? 0 };
    },
  };
}
