import { partnerScope } from "./createQuoteQueries.js";
import type { HistoryQuery } from "./createStore.js";
import { readIntentRow, STATUS_COLUMNS_SQL, type StatusRow, TERMINAL_STATUSES } from "./intentRow.js";
import type { SqlDatabase } from "./sqlDatabase.js";

const TERMINAL_SQL = TERMINAL_STATUSES.map((s) => `'${s}'`).join(", ");

/** The swap history of `Store.listHistory`: one page and the total count. */
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
