import type { StatusCache } from "./createStatusCache.js";
import type { Store } from "./createStore.js";
import { readIntentRow } from "./intentRow.js";
import type { SqlDatabase } from "./sqlDatabase.js";

/**
 * The resolver's half of the store: its work list, the expiry sweep and deferral. While `mayResolve()` is false
 * (another sandbox may hold the database's resolver lock) the work list is empty and the sweep expires nothing:
 * the resolver pauses.
 */
export function createWorkQueries(
  db: SqlDatabase,
  cache: StatusCache,
  mayResolve: () => boolean,
): Pick<Store, "listWork" | "expireOverdue" | "deferIntent"> {
  return {
    async listWork(limit) {
      if (!mayResolve()) return [];
      const r = await db.read<Record<string, unknown>>(
        `SELECT * FROM intents WHERE pending_step IS NOT NULL
           OR status IN ('ApprovalAdded', 'Accepted', 'UserDeposited', 'RefundRquested')
         ORDER BY next_attempt_ms, pending_step IS NULL, seq LIMIT $1`,
        [limit],
      );
      return r.rows.map(readIntentRow);
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

    async deferIntent(id, nowMs) {
      await db.query("UPDATE intents SET next_attempt_ms = $2 WHERE id = $1", [id, nowMs]);
    },
  };
}
