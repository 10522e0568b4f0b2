import { createIntentQueries } from "./createIntentQueries.js";
import { createMetaQueries } from "./createMetaQueries.js";
import { createQuoteQueries } from "./createQuoteQueries.js";
import { createStatusCache } from "./createStatusCache.js";
import { createWorkQueries } from "./createWorkQueries.js";
import { listHistory } from "./listHistory.js";
import type { SqlDatabase } from "./sqlDatabase.js";
import { EXCLUSIVE_GATE, type ResolverGate, type Store } from "./storeTypes.js";

export type { HistoryQuery, QuoteRecord, ResolverGate, Store, UpdateResult } from "./storeTypes.js";
export { EXCLUSIVE_GATE } from "./storeTypes.js";

/**
 * Create the store over an open database (see `openDatabase` and `openSandboxDatabase`). Its status cache assumes
 * it is the database's only writer, which the resolver lock (`gate`) guarantees on a shared server.
 */
export function createStore({
  db,
  gate = EXCLUSIVE_GATE,
  enginesId,
}: {
  db: SqlDatabase;
  gate?: ResolverGate;
  /**
   * The engines this sandbox runs (see `readEnginesId`): the resolver takes only intents whose funds are on them.
   * Without it (a store used alone) the work list takes every intent.
   */
  enginesId?: string;
}): Store {
  const cache = createStatusCache({ generation: gate.generation, held: gate.held });
  return {
    ...createMetaQueries(db),
    ...createQuoteQueries(db),
    ...createIntentQueries(db, cache),
    ...createWorkQueries(db, cache, gate.held, enginesId),
    listHistory: (query) => listHistory(db, query),
    exclusive: gate.exclusive === true,
  };
}
