import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { MIGRATIONS, type Migration } from "./migrations.js";

/** A fresh cluster (`initdb`) costs seconds; in-memory databases of one process start from a copy of the first one. */
let freshClusterImage: Promise<Blob> | undefined;

async function createMemoryDatabase(): Promise<PGlite> {
  if (freshClusterImage) {
    try {
      return await PGlite.create({ loadDataDir: await freshClusterImage });
    } catch {
      freshClusterImage = undefined;
    }
  }
  const db = await PGlite.create();
  freshClusterImage = db.dumpDataDir("none").then((image) => image as Blob);
  await freshClusterImage;
  return db;
}

/**
 * Open the sandbox database: PGlite in `dir` (created if missing) or in memory, then apply the migrations
 * not yet applied, each in its own transaction, recorded in `schema_migrations`.
 */
export async function openDatabase({
  dir,
  migrations = MIGRATIONS,
}: {
  dir: string | undefined;
  migrations?: readonly Migration[];
}): Promise<PGlite> {
  let db: PGlite;
  if (dir === undefined) db = await createMemoryDatabase();
  else {
    mkdirSync(dir, { recursive: true });
    db = await PGlite.create({ dataDir: dir });
  }
  await db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())",
  );
  const applied = await db.query<{ version: number }>("SELECT version FROM schema_migrations");
  const done = new Set(applied.rows.map((row) => row.version));
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (done.has(migration.version)) continue;
    await db.transaction(async (tx) => {
      await tx.exec(migration.sql);
      await tx.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [
        migration.version,
        migration.name,
      ]);
    });
  }
  return db;
}
