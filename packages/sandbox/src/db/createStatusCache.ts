import type { IntentRow, StatusRow } from "./intentRow.js";
import { STATUS_FIELDS } from "./intentRow.js";

/** Status rows kept in memory at most (oldest dropped first). */
const STATUS_CACHE_SIZE = 50_000;

/** A cached status row with the partner that owns it (null: stored before partner scoping, everyone's). */
export interface CachedStatus {
  row: StatusRow;
  partnerId: string | null;
}

/** The status fields of an intent row. */
export const pickStatus = (row: IntentRow): StatusRow =>
  Object.fromEntries(STATUS_FIELDS.map((f) => [f, row[f]])) as unknown as StatusRow;

/** The store's write-through status cache (see {@link createStatusCache}). */
export interface StatusCache {
  get(id: string): CachedStatus | undefined;
  set(id: string, entry: CachedStatus): void;
  /** Scoping as the SQL says it: the partner's own rows and those stored before scoping. */
  visibleTo(entry: CachedStatus, partnerId: string): boolean;
  /** Run an intent write; if it fails (its outcome may be unknown) forget `id`, or everything when no id. */
  writing<T>(id: string | undefined, write: () => Promise<T>): Promise<T>;
  /**
   * Run a status read; `fill` it into the cache only when no intent write was in flight from its start to its
   * end, so the cache never stores a stale row.
   */
  reading<T>(read: () => Promise<T>, fill: (result: T) => void): Promise<T>;
}

/**
 * The status cache of one store. Correct while the store is the database's only writer: writes that change
 * status fields refresh it with the row the database returned. While the resolver lock is not `held` (its
 * connection was lost: another sandbox may take it and write) the cache answers nothing and is dropped; so it is
 * when `generation` changes (the lock was taken again: another sandbox may have written in between).
 */
export function createStatusCache({
  generation,
  held,
}: {
  generation: () => number;
  held: () => boolean;
}): StatusCache {
  const entries = new Map<string, CachedStatus>();
  let seenGeneration = generation();
  let writesStarted = 0;
  let writesFinished = 0;
  const checkGeneration = () => {
    if (!held()) {
      entries.clear();
      return;
    }
    const now = generation();
    if (now === seenGeneration) return;
    seenGeneration = now;
    entries.clear();
  };
  return {
    get(id) {
      checkGeneration();
      return entries.get(id);
    },
    set(id, entry) {
      if (!held()) return;
      entries.delete(id);
      entries.set(id, entry);
      if (entries.size > STATUS_CACHE_SIZE) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
    },
    visibleTo: (entry, partnerId) => entry.partnerId === null || entry.partnerId === partnerId,
    async writing(id, write) {
      writesStarted++;
      try {
        return await write();
      } catch (error) {
        if (id === undefined) entries.clear();
        else entries.delete(id);
        throw error;
      } finally {
        writesFinished++;
      }
    },
    async reading(read, fill) {
      const quiet = writesStarted === writesFinished;
      const startedBefore = writesStarted;
      const result = await read();
      if (quiet && writesStarted === startedBefore) fill(result);
      return result;
    },
  };
}
