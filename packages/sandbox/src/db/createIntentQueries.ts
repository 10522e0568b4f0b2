import { partnerScope } from "./createQuoteQueries.js";
import { pickStatus, type StatusCache } from "./createStatusCache.js";
import {
  INTENT_COLUMNS,
  type IntentRow,
  readIntentRow,
  STATUS_COLUMNS_SQL,
  type StatusRow,
} from "./intentRow.js";
import type { SqlDatabase } from "./sqlDatabase.js";
import type { Store } from "./storeTypes.js";

/** Intent fields stored as jsonb. */
const JSONB_FIELDS = new Set<keyof IntentRow>(["paramsToSign", "legData"]);

/**
 * A value as a query parameter, with its placeholder. A jsonb value is sent as JSON text and cast in SQL
 * (`$n::text::jsonb`): PGlite's own jsonb parameter path costs about seven times more per insert.
 */
export function toParam(
  field: keyof IntentRow,
  value: unknown,
  index: number,
): { value: unknown; sql: string } {
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

/** Mark the quote used and insert the intent, in one transaction; false when the quote was already used. */
const insertIntent = (db: SqlDatabase, row: IntentRow, partnerId: string) =>
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

/** The compare-and-set UPDATE of {@link Store.updateIntent}: its SQL and parameters. */
function compareAndSet({
  id,
  expectedStatus,
  expectedPendingStep,
  changes,
}: Parameters<Store["updateIntent"]>[0]) {
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
  return { sql: `UPDATE intents SET ${sets.join(", ")} WHERE ${where} RETURNING *`, params };
}

/** The intent half of the store: insert, read, status (through the cache) and compare-and-set update. */
export function createIntentQueries(
  db: SqlDatabase,
  cache: StatusCache,
): Pick<Store, "insertIntentFromQuote" | "getIntent" | "getStatus" | "updateIntent"> {
  return {
    async insertIntentFromQuote(row, { partnerId }) {
      const inserted = await cache.writing(row.id, () => insertIntent(db, row, partnerId));
      if (inserted) cache.set(row.id, { row: pickStatus(row), partnerId });
      return inserted;
    },

    async getIntent(id, partnerId) {
      const r =
        partnerId === undefined
          ? await db.read<Record<string, unknown>>("SELECT * FROM intents WHERE id = $1", [id])
          : await db.read<Record<string, unknown>>(
              `SELECT * FROM intents WHERE id = $1 AND ${partnerScope(2)}`,
              [id, partnerId],
            );
      return r.rows[0] ? readIntentRow(r.rows[0]) : undefined;
    },

    async getStatus(id, partnerId) {
      const cached = cache.get(id);
      if (cached) return cache.visibleTo(cached, partnerId) ? cached.row : undefined;
      const r = await cache.reading(
        () =>
          db.read<Record<string, unknown>>(
            `SELECT ${STATUS_COLUMNS_SQL}, partner_id FROM intents WHERE id = $1 AND ${partnerScope(2)}`,
            [id, partnerId],
          ),
        (result) => {
          const found = result.rows[0];
          if (found)
            cache.set(id, {
              row: readIntentRow(found) as StatusRow,
              partnerId: (found.partner_id as string | null | undefined) ?? null,
            });
        },
      );
      return r.rows[0] ? (readIntentRow(r.rows[0]) as StatusRow) : undefined;
    },

    async updateIntent(request) {
      const { sql, params } = compareAndSet(request);
      const r = await cache.writing(request.id, () => db.query<Record<string, unknown>>(sql, params));
      const updated = r.rows[0];
      if (!updated) return { updated: false };
      const row = readIntentRow(updated);
      cache.set(row.id, {
        row: pickStatus(row),
        partnerId: (updated.partner_id as string | null | undefined) ?? null,
      });
      return { updated: true, row };
    },
  };
}
