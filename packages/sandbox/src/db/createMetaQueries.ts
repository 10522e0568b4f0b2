import { randomBytes } from "node:crypto";
import type { SqlDatabase, SqlQueryable } from "./sqlDatabase.js";
import type { Store } from "./storeTypes.js";

const META_SEED = "master_seed";
const META_CLOCK = "clock_offset_ms";

async function readMeta(q: SqlQueryable, key: string): Promise<string | undefined> {
  const r = await q.query<{ value: string }>("SELECT value FROM meta WHERE key = $1", [key]);
  return r.rows[0]?.value;
}

/** The `meta` table half of the store: the master seed and the dev clock offset. */
export function createMetaQueries(
  db: SqlDatabase,
): Pick<Store, "loadMasterSeed" | "loadClockOffsetMs" | "saveClockOffsetMs"> {
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
      // A read, not a write: it runs while the lock is being taken again, before this sandbox may write.
      const r = await db.read<{ value: string }>("SELECT value FROM meta WHERE key = $1", [META_CLOCK]);
      const value = r.rows[0]?.value;
      return value === undefined ? 0 : Number(value);
    },

    async saveClockOffsetMs(offsetMs) {
      await db.query(
        "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
        [META_CLOCK, String(offsetMs)],
      );
    },
  };
}
