import type { HistoryQuery, Store } from "./createStore.js";
import { readIntentRow, STATUS_COLUMNS_SQL, type StatusRow, TERMINAL_STATUSES } from "./intentRow.js";
import { partnerScope } from "./quoteQueries.js";
import type { SqlDatabase } from "./sqlDatabase.js";
import type { StatusCache } from "./statusCache.js";

const TERMINAL_SQL = TERMINAL_STATUSES.map((s) => `'${s}'`).join(", ");

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

/** The swap history of {@link Store.listHistory}: one page and the total count. */
export async function listHistory(
  db: SqlDatabase,
  query: HistoryQuery,
): Promise<{ rows: StatusRow[]; total: number }> {
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
  const total = await db.read<{ n: number }>(`SELECT count(*)::int AS n FROM intents ${where}`, params);
  const page = await db.read<Record<string, unknown>>(
    `SELECT ${STATUS_COLUMNS_SQL} FROM intents ${where} ORDER BY seq DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, query.limit, query.offset],
  );
  return { rows: page.rows.map(readIntentRow), total: total.rows[0]?.n ?? 0 };
}
