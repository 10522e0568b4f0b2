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
  /** The partner that asked for it (null for quotes stored before partner scoping). */
  partnerId: string | null;
}

/** Filters of the swap history. */
export interface HistoryQuery {
  /** Lower-cased wallet addresses; an intent matches when its source or destination address is one of them. */
  wallets: string[] | undefined;
  retailId: string | undefined;
  /** Only this partner's intents (and those stored before partner scoping). */
  partnerId: string;
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
  /** A quote of `partnerId` (or one stored before partner scoping); undefined for anyone else's, as for an unknown id. */
  getQuote(id: string, partnerId: string): Promise<QuoteRecord | undefined>;
  /**
   * In one transaction: mark the quote used by this intent (only if no intent used it yet) and insert the intent,
   * owned by `partnerId`. Returns false, changing nothing, when another intent already used the quote.
   */
  insertIntentFromQuote(row: IntentRow, owner: { partnerId: string }): Promise<boolean>;
  /**
   * An intent by id. With `partnerId`, only that partner's (or one stored before partner scoping): the HTTP layer
   * always passes it; the resolver and the dev endpoints, which act for the operator, do not.
   */
  getIntent(id: string, partnerId?: string): Promise<IntentRow | undefined>;
  /**
   * What the status endpoint shows of `partnerId`'s intent (never the secret); undefined for anyone else's.
   * Served from a write-through cache: this store is the database's only writer and refreshes the cache with every
   * row it writes (a row's partner never changes, so the cache answers the scoping question too).
   */
  getStatus(id: string, partnerId: string): Promise<StatusRow | undefined>;
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
   * for longest come first (see {@link Store.deferIntent}); among those, a recorded step (funds in flight, e.g.
   * after a crash) before the rest; then the oldest.
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
/** Rows a partner sees: its own, and those stored before partner scoping (migration 2). */
const partnerScope = (param: number) => `(partner_id = $${param} OR partner_id IS NULL)`;

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
  type CachedStatus = { row: StatusRow; partnerId: string | null };
  const statusCache = new Map<string, CachedStatus>();
  /** Scoping as `partnerScope` says it: the partner's own rows and those stored before scoping. */
  const visibleTo = (entry: CachedStatus, partnerId: string) =>
    entry.partnerId === null || entry.partnerId === partnerId;
  let writesStarted = 0;
  let writesFinished = 0;
  const cacheStatus = (id: string, entry: CachedStatus) => {
    statusCache.delete(id);
    statusCache.set(id, entry);
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
        quote.partnerId,
      );
      const n = params.length;
      return `($${n - 5}, $${n - 4}::text::jsonb, $${n - 3}, $${n - 2}, NULL, $${n - 1}, $${n})`;
    });
    await db.query(
      `INSERT INTO quotes (id, wire, expiry_ms, retail_user_id, used_by_intent, created_at_ms, partner_id) VALUES ${values.join(", ")}`,
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
  const insertIntent = (row: IntentRow, partnerId: string) =>
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
        `INSERT INTO intents (${columns.join(", ")}, partner_id) VALUES (${params.map((p) => p.sql).join(", ")}, $${fields.length + 1})`,
        [...params.map((p) => p.value), partnerId],
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

    async getQuote(id, partnerId) {
      const r = await db.query<{
        id: string;
        wire: Record<string, Json>;
        expiry_ms: number | bigint;
        retail_user_id: string | null;
        used_by_intent: string | null;
        partner_id: string | null;
      }>(
        `SELECT id, wire, expiry_ms, retail_user_id, used_by_intent, partner_id FROM quotes WHERE id = $1 AND ${partnerScope(2)}`,
        [id, partnerId],
      );
      const row = r.rows[0];
      if (!row) return undefined;
      return {
        id: row.id,
        wire: row.wire,
        expiryMs: Number(row.expiry_ms),
        retailUserId: row.retail_user_id,
        usedByIntent: row.used_by_intent,
        partnerId: row.partner_id,
      };
    },

    async insertIntentFromQuote(row, { partnerId }) {
      const inserted = await writing(() => insertIntent(row, partnerId));
      if (inserted) cacheStatus(row.id, { row: pickStatus(row), partnerId });
      return inserted;
    },

    async getIntent(id, partnerId) {
      const r =
        partnerId === undefined
          ? await db.query<Record<string, unknown>>("SELECT * FROM intents WHERE id = $1", [id])
          : await db.query<Record<string, unknown>>(
              `SELECT * FROM intents WHERE id = $1 AND ${partnerScope(2)}`,
              [id, partnerId],
            );
      return r.rows[0] ? readIntentRow(r.rows[0]) : undefined;
    },

    async getStatus(id, partnerId) {
      const cached = statusCache.get(id);
      if (cached) return visibleTo(cached, partnerId) ? cached.row : undefined;
      const quiet = writesStarted === writesFinished;
      const startedBefore = writesStarted;
      const r = await db.query<Record<string, unknown>>(
        `SELECT ${STATUS_COLUMNS_SQL}, partner_id FROM intents WHERE id = $1 AND ${partnerScope(2)}`,
        [id, partnerId],
      );
      const row = r.rows[0] ? (readIntentRow(r.rows[0]) as StatusRow) : undefined;
      if (row && quiet && writesStarted === startedBefore)
        cacheStatus(id, { row, partnerId: (r.rows[0]?.partner_id as string | null | undefined) ?? null });
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
      cacheStatus(row.id, {
        row: pickStatus(row),
        partnerId: (updated.partner_id as string | null | undefined) ?? null,
      });
      return { updated: true, row };
    },

    async listWork(limit) {
      const r = await db.query<Record<string, unknown>>(
        `SELECT * FROM intents WHERE pending_step IS NOT NULL
           OR status IN ('ApprovalAdded', 'Accepted', 'UserDeposited', 'RefundRquested')
         ORDER BY next_attempt_ms, pending_step IS NULL, seq LIMIT $1`,
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
        if (cached) statusCache.set(id, { ...cached, row: { ...cached.row, status: "Expired" } });
      }
      return r.rows.length;
    },

    async deferIntent(id, nowMs) {
      await db.query("UPDATE intents SET next_attempt_ms = $2 WHERE id = $1", [id, nowMs]);
    },

    async listHistory(query) {
      const params: unknown[] = [query.partnerId];
      const conditions: string[] = [partnerScope(1)];
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
      const where = `WHERE ${conditions.join(" AND ")}`;
      const total = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM intents ${where}`, params);
      const page = await db.query<Record<string, unknown>>(
        `SELECT ${STATUS_COLUMNS_SQL} FROM intents ${where} ORDER BY seq DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, query.limit, query.offset],
      );
      return { rows: page.rows.map(readIntentRow), total: total.rows[0]?.n ?? 0 };
    },
  };
}
