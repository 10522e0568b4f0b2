import type { Json } from "../legs/types.js";
import type { SqlDatabase } from "./sqlDatabase.js";
import type { QuoteRecord, Store } from "./storeTypes.js";

/** Quotes written in one INSERT at most. */
const QUOTE_BATCH = 128;

/** Rows a partner sees: its own, and those stored before partner scoping (migration 2). */
export const partnerScope = (param: number) => `(partner_id = $${param} OR partner_id IS NULL)`;

type QueuedQuote = { quote: QuoteRecord & { createdAtMs: number }; done: (error?: unknown) => void };

async function insertQuotes(db: SqlDatabase, batch: QueuedQuote[]): Promise<void> {
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
}

/**
 * The quote half of the store. Quotes are inserted by group commit: the INSERT starts on the next turn of the
 * event loop (after the requests that arrived with this one have queued their quotes), and while it runs later
 * quotes queue for the next one (one statement for up to QUOTE_BATCH rows). Each caller still resolves only once
 * its row is committed.
 */
export function createQuoteQueries(db: SqlDatabase): Pick<Store, "insertQuote" | "getQuote"> {
  let queue: QueuedQuote[] = [];
  let flushing = false;
  const flush = async () => {
    flushing = true;
    while (queue.length > 0) {
      const batch = queue.slice(0, QUOTE_BATCH);
      queue = queue.slice(QUOTE_BATCH);
      try {
        await insertQuotes(db, batch);
        for (const q of batch) q.done();
      } catch {
        // One bad row must not fail the others: retry them one by one.
        for (const q of batch) await insertQuotes(db, [q]).then(() => q.done(), q.done);
      }
    }
    flushing = false;
  };
  return {
    insertQuote(quote) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ quote, done: (error) => (error === undefined ? resolve() : reject(error)) });
        if (!flushing) {
          flushing = true;
          setImmediate(() => void flush());
        }
      });
    },

    async getQuote(id, partnerId) {
      const r = await db.read<{
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
  };
}
