import { applyMigrations } from "./applyMigrations.js";
import { MIGRATIONS, type Migration } from "./migrations.js";
import { openPglite } from "./openPglite.js";
import type { SqlDatabase } from "./sqlDatabase.js";

/**
 * Open the embedded sandbox database: PGlite in `dir` (created if missing) or in memory, then apply the
 * migrations not yet applied (see {@link applyMigrations}). For a PostgreSQL server see `openSandboxDatabase`.
 */
export async function openDatabase({
  dir,
  migrations = MIGRATIONS,
}: {
  dir: string | undefined;
  migrations?: readonly Migration[];
}): Promise<SqlDatabase> {
  const db = await openPglite({ dir });
  try {
    await applyMigrations(db, migrations);
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
  return db;
}
