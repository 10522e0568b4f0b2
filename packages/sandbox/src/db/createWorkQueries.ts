import type { StatusCache } from "./createStatusCache.js";
import { readIntentRow } from "./intentRow.js";
import type { SqlDatabase } from "./sqlDatabase.js";
import type { Store } from "./storeTypes.js";

/**
 * Quotes deleted between two `VACUUM quotes`: PGlite runs no autovacuum, so without it the deleted rows' space was
 * never reused and the table grew as before (1.6 MB per 2,000 quotes pruned, measured).
 */
const VACUUM_AFTER_PRUNED = 1_000;

/**
 * Intents deferred between two `VACUUM intents`. A deferral rewrites the whole row (a few KB, about one per page), so
 * while more stuck intents wait than a pass takes, each pass left about 200 dead row versions (120 KB) behind for good
 * on PGlite: 250 stuck intents grew the table by 4.5-6.8 MB every 50 passes.
 */
const VACUUM_AFTER_DEFERRED = 2_000;

/**
 * The resolver's half of the store: its work list, the expiry sweep, deferral and quote pruning. While `mayResolve()` is false
 * (another sandbox may hold the database's resolver lock) the work list is empty and the sweep expires and prunes nothing:
 * the resolver pauses.
 */
export function createWorkQueries(
  db: SqlDatabase,
  cache: StatusCache,
  mayResolve: () => boolean,
  enginesId: string | undefined,
): Pick<
  Store,
  "listWork" | "expireOverdue" | "deferIntents" | "pruneQuotes" | "adoptUnrecordedIntents" | "listForeignWork"
> {
  let prunedSinceVacuum = 0;
  let deferredSinceVacuum = 0;
  return {
    async listWork(limit) {
      if (!mayResolve()) return [];
      // Only intents whose funds are on this sandbox's engines: another data dir's wait for their own engines.
      const r = await db.read<Record<string, unknown>>(
        `SELECT * FROM intents WHERE (pending_step IS NOT NULL
           OR status IN ('ApprovalAdded', 'Accepted', 'UserDeposited', 'RefundRquested'))
           ${enginesId === undefined ? "AND $2::text IS NULL" : "AND engines_id = $2"}
         ORDER BY next_attempt_ms, pending_step IS NULL, seq LIMIT $1`,
        [limit, enginesId ?? null],
      );
      return r.rows.map(readIntentRow);
    },

    async adoptUnrecordedIntents() {
      if (enginesId === undefined) return 0;
      const r = await db.query("UPDATE intents SET engines_id = $1 WHERE engines_id IS NULL", [enginesId]);
      return r.affectedRows;
    },

    async listForeignWork() {
      if (enginesId === undefined) return [];
      const r = await db.read<{ engines_id: string | null; intents: number | bigint }>(
        `SELECT engines_id, count(*) AS intents FROM intents WHERE (pending_step IS NOT NULL
           OR status IN ('ApprovalAdded', 'Accepted', 'UserDeposited', 'RefundRquested'))
           AND engines_id IS DISTINCT FROM $1
         GROUP BY engines_id ORDER BY engines_id`,
        [enginesId],
      );
      return r.rows.map((row) => ({ enginesId: row.engines_id, intents: Number(row.intents) }));
    },

    async expireOverdue(nowMs) {
      if (!mayResolve()) return 0;
      // deadline_secs * 1000 < nowMs, written so the intents_expiry index applies.
      const r = await cache.writing(undefined, () =>
        db.query<{ id: string }>(
          `UPDATE intents SET status = 'Expired', updated_at_ms = $1
           WHERE status IN ('Initiated', 'ApprovalAdded') AND pending_step IS NULL AND deadline_secs < $2
           RETURNING id`,
          [nowMs, Math.ceil(nowMs / 1000)],
        ),
      );
      for (const { id } of r.rows) {
        const cached = cache.get(id);
        if (cached) cache.set(id, { ...cached, row: { ...cached.row, status: "Expired" } });
      }
      return r.rows.length;
    },

    async pruneQuotes(beforeMs, limit) {
      if (!mayResolve()) return 0;
      // The quotes_unused_expiry index finds them; used_by_intent IS NULL again in the DELETE, so a quote an intent
      // took between the two (it cannot: it expired, see createIntent) would still be kept.
      const r = await db.query(
        `DELETE FROM quotes WHERE id IN (
           SELECT id FROM quotes WHERE used_by_intent IS NULL AND expiry_ms < $1 ORDER BY expiry_ms LIMIT $2
         ) AND used_by_intent IS NULL`,
        [beforeMs, limit],
      );
      prunedSinceVacuum += r.affectedRows;
      if (prunedSinceVacuum >= VACUUM_AFTER_PRUNED) {
        prunedSinceVacuum = 0;
        await db.exec("VACUUM quotes");
      }
      return r.affectedRows;
    },

    async deferIntents({ ids, nowMs, firstTimeOnly = false }) {
      // A row the WHERE clause skips is not written at all (no new row version).
      const r = await db.query(
        `UPDATE intents SET next_attempt_ms = $2 WHERE id = ANY($1::uuid[])${firstTimeOnly ? " AND next_attempt_ms = 0" : ""}`,
        [ids, nowMs],
      );
      deferredSinceVacuum += r.affectedRows;
      if (deferredSinceVacuum >= VACUUM_AFTER_DEFERRED) {
        deferredSinceVacuum = 0;
        await db.exec("VACUUM intents");
      }
    },
  };
}
