import { partnerScope } from "./createQuoteQueries.js";
import { readIntentRow, STATUS_COLUMNS_SQL, type StatusRow, TERMINAL_STATUSES } from "./intentRow.js";
import type { SqlDatabase } from "./sqlDatabase.js";
import type { HistoryQuery } from "./storeTypes.js";

const TERMINAL_SQL = TERMINAL_STATUSES.map((s) => `'${s}'`).join(", ");

/** The swap history of `Store.listHistory`: one page, newest first, and the total count, from one snapshot. */
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
  // One statement, so the total and the page come from one snapshot (as two reads, an intent stored between them
  // made a page disagree with its total on a server). The LEFT JOIN keeps a row (the total) when the page is empty.
  const r = await db.read<Record<string, unknown>>(
    `WITH matching AS (SELECT ${STATUS_COLUMNS_SQL}, seq FROM intents ${where})
     SELECT counted.history_total, page.* FROM (SELECT count(*)::int AS history_total FROM matching) counted
     LEFT JOIN LATERAL (SELECT * FROM matching ORDER BY seq DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}) page ON true`,
    [...params, query.limit, query.offset],
  );
  const total = Number(r.rows[0]?.history_total ?? 0);
  const rows = r.rows.filter((row) => row.seq !== null && row.seq !== undefined).map(readIntentRow);
  return { rows, total };
}
