import { join } from "node:path";
import { acquireResolverLock } from "./acquireResolverLock.js";
import { applyMigrations } from "./applyMigrations.js";
import { checkDatabaseUrl } from "./checkDatabaseUrl.js";
import { lockDataDir } from "./lockDataDir.js";
import { MIGRATIONS, type Migration } from "./migrations.js";
import { openDatabase } from "./openDatabase.js";
import { openPostgres } from "./openPostgres.js";
import type { SqlDatabase } from "./sqlDatabase.js";
import { EXCLUSIVE_GATE, type ResolverGate } from "./storeTypes.js";

/** How long one statement on a server may take by default before it fails as unavailable: 15 s. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;

/** How long a sandbox waits for another's resolver lock by default: 10 minutes. */
export const DEFAULT_LOCK_TIMEOUT_MS = 600_000;

/** The sandbox's open database, with the gate its resolver follows. */
export interface SandboxDatabase {
  db: SqlDatabase;
  /** Always held on PGlite (its data dir is this process's alone); the advisory lock on a server. */
  gate: ResolverGate;
  /** Close the connections, then release the lock. */
  close(): Promise<void>;
}

/** How a sandbox opens its database (see `SandboxOptions`). */
export interface OpenSandboxDatabaseOptions {
  /** The sandbox's data dir: PGlite lives in `<dataDir>/db` when no `databaseUrl` is given; in memory without both. */
  dataDir?: string | undefined;
  /** A PostgreSQL server (`postgres://user:password@host:port/database`) instead of PGlite. */
  databaseUrl?: string | undefined;
  /**
   * When another sandbox holds the server database's resolver lock, or runs on the PGlite data dir: wait for it
   * (default) or refuse at once.
   */
  waitForLock?: boolean;
  /** How long to wait for that lock, ms (default 600 s), then fail with `SANDBOX_DATABASE_LOCKED`. */
  lockTimeoutMs?: number;
  /** How long to retry a server that is unreachable at start, ms (default 60 s). */
  startTimeoutMs?: number;
  /**
   * How long one statement on a server may take before its connection is dropped and it fails as
   * `SANDBOX_DATABASE_UNAVAILABLE` (a server that hangs answers 503 instead of holding every request), ms
   * (default 15 s).
   */
  statementTimeoutMs?: number;
  log: (message: string) => void;
  migrations?: readonly Migration[];
}

/** How long to wait for another sandbox's lock (of a server database, or of a PGlite data dir), ms. */
const lockWaitMs = (options: OpenSandboxDatabaseOptions) =>
  options.waitForLock === false ? 0 : (options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS);

/**
 * Open the sandbox database. Without `databaseUrl`: PGlite (see `openDatabase`), in `<dataDir>/db` once this process
 * holds the data dir's lock (see `lockDataDir`). With it: check the URL, connect to
 * the server (retrying while it is unreachable), take its single-resolver lock on that connection, which then is the
 * sandbox's only writer (waiting or refusing, see `acquireResolverLock`), and only then apply the migrations, so two
 * sandboxes never migrate one database at once and a sandbox that lost the lock writes nothing.
 * Throws a `DatabaseError` (`SANDBOX_DATABASE_*`) naming the redacted URL, never the password; nothing stays open.
 */
export async function openSandboxDatabase(options: OpenSandboxDatabaseOptions): Promise<SandboxDatabase> {
  const migrations = options.migrations ?? MIGRATIONS;
  if (options.databaseUrl === undefined) {
    const dataDir = options.dataDir;
    if (dataDir === undefined) {
      const db = await openDatabase({ dir: undefined, migrations });
      return { db, gate: EXCLUSIVE_GATE, close: () => db.close() };
    }
    // PGlite's files are this process's alone: one sandbox per data dir, the next one waits for it.
    const lock = await lockDataDir({ dataDir, waitMs: lockWaitMs(options), log: options.log });
    try {
      const db = await openDatabase({ dir: join(dataDir, "db"), migrations });
      return {
        db,
        gate: EXCLUSIVE_GATE,
        close: async () => {
          try {
            await db.close();
          } finally {
            lock.release();
          }
        },
      };
    } catch (error) {
      lock.release();
      throw error;
    }
  }
  const url = options.databaseUrl;
  checkDatabaseUrl(url);
  if (options.dataDir === undefined)
    options.log(
      "database on a server but no data dir: engine state is in memory, so after a restart the stored intents refer to chains that are gone",
    );
  const lock = await acquireResolverLock({
    url,
    waitMs: lockWaitMs(options),
    log: options.log,
    startTimeoutMs: options.startTimeoutMs ?? 60_000,
    statementTimeoutMs: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
  });
  const db = openPostgres({
    url,
    writer: lock,
    log: options.log,
    statementTimeoutMs: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
  });
  const close = async () => {
    await db.close();
    await lock.release();
  };
  try {
    await applyMigrations(db, migrations);
  } catch (error) {
    await close();
    throw error;
  }
  return { db, gate: lock, close };
}
