import pg from "pg";
import type { ResolverLock } from "./acquireResolverLock.js";
import { createDatabaseError, redactDatabaseUrl } from "./databaseError.js";
import { driverCode, endPool, isConnectionLost, poolConfig } from "./postgresConnection.js";
import type { SqlDatabase, SqlQueryable, SqlResult } from "./sqlDatabase.js";

/** Reader connections at most (reads run beside the single writer). */
const READERS = 4;

/** A lost connection as `SANDBOX_DATABASE_UNAVAILABLE`; any other error unchanged. */
function translate(error: unknown): unknown {
  if (!isConnectionLost(error)) return error;
  return createDatabaseError(
    "SANDBOX_DATABASE_UNAVAILABLE",
    "The database is unavailable; the statement did not complete (or its outcome is unknown).",
    { driverCode: driverCode(error) },
    error,
  );
}

async function run<T>(
  on: pg.Pool | pg.Client,
  sql: string,
  params: readonly unknown[] | undefined,
): Promise<SqlResult<T>> {
  try {
    const r = await on.query(sql, params as unknown[] | undefined);
    return { rows: r.rows as T[], affectedRows: r.rowCount ?? 0 };
  } catch (error) {
    throw translate(error);
  }
}

/** `work` between BEGIN and COMMIT on `client` (the writer, which the caller holds alone); ROLLBACK when it throws. */
async function inTransaction<T>(client: pg.Client, work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
  const tx: SqlQueryable = {
    query: (sql, params) => run(client, sql, params),
    exec: async (sql) => {
      await run(client, sql, undefined);
    },
  };
  try {
    await tx.exec("BEGIN");
    const result = await work(tx);
    await tx.exec("COMMIT");
    return result;
  } catch (error) {
    // A failed ROLLBACK means the connection is gone: the server rolls back on its own, and the lock's connection
    // is replaced (see acquireResolverLock).
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

/**
 * Open a PostgreSQL server as a {@link SqlDatabase} over the connection that holds the database's resolver lock
 * (see `acquireResolverLock`, called first; it checks the URL and waits for the server). Every write and transaction
 * runs on that one connection (one at a time, in call order, as on PGlite), so a sandbox writes only while it holds
 * the lock; reads run on a pool of up to four readers beside it.
 *
 * A connection lost later (server restarted or dropped, backend terminated) fails the statements in flight with
 * `SANDBOX_DATABASE_UNAVAILABLE`; writes fail the same way until the lock is taken again, reads until a reader
 * connects. The first loss is logged, and so is the first statement that works again.
 */
export function openPostgres({
  url,
  writer,
  log,
  statementTimeoutMs,
}: {
  url: string;
  writer: ResolverLock;
  log: (message: string) => void;
  /** A read that takes longer fails as unavailable (its connection is dropped); the writer has its own (the lock's). */
  statementTimeoutMs: number;
}): SqlDatabase {
  const readers = new pg.Pool({ ...poolConfig(url, READERS), query_timeout: statementTimeoutMs });
  const endReaders = endPool(readers);
  let down = false;
  const noteLost = (error: unknown) => {
    if (down || !isConnectionLost(error)) return;
    down = true;
    log(
      `database ${redactDatabaseUrl(url)} unavailable (${driverCode(error)}): requests answer 503 and the resolver pauses until it is back`,
    );
  };
  const noteOk = () => {
    if (!down) return;
    down = false;
    log(`database ${redactDatabaseUrl(url)} is back`);
  };
  // An idle connection that dies emits on its pool; unhandled, it would end the process.
  readers.on("error", noteLost);
  const watch = async <T>(statement: Promise<T>): Promise<T> => {
    try {
      const result = await statement;
      noteOk();
      return result;
    } catch (error) {
      noteLost((error as { cause?: unknown }).cause ?? error);
      throw error;
    }
  };
  let closed = false;
  /** Run `statement` unless the database was closed (then fail as unavailable, as a lost connection would). */
  const ifOpen = async <T>(statement: () => Promise<T>): Promise<T> => {
    if (closed)
      throw createDatabaseError("SANDBOX_DATABASE_UNAVAILABLE", "The database was closed.", {
        driverCode: "closed",
      });
    return watch(statement());
  };
  return {
    query: (sql, params) => ifOpen(() => writer.use((client) => run(client, sql, params))),
    read: (sql, params) => ifOpen(() => run(readers, sql, params)),
    exec: async (sql) => {
      await ifOpen(() => writer.use((client) => run(client, sql, undefined)));
    },
    transaction: (work) => ifOpen(() => writer.use((client) => inTransaction(client, work))),
    async close() {
      if (closed) return;
      closed = true;
      await endReaders();
    },
  };
}
