import type { Migration } from "./migrations.js";
import type { SqlDatabase } from "./sqlDatabase.js";

/**
 * Apply the migrations not yet applied, in version order, each in its own transaction and recorded in
 * `schema_migrations`. On a server, call it only while holding the resolver lock, so two sandboxes never migrate
 * one database at once.
 */
export async function applyMigrations(db: SqlDatabase, migrations: readonly Migration[]): Promise<void> {
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
}
