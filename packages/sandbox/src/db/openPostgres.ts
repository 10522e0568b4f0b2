import pg from "pg";
import { checkDatabaseUrl } from "./checkDatabaseUrl.js";
import { connectWithRetry } from "./connectWithRetry.js";
import { createDatabaseError, redactDatabaseUrl } from "./databaseError.js";
import { driverCode, isConnectionLost, poolConfig } from "./postgresConnection.js";
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
  on: pg.Pool | pg.PoolClient,
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

async function inTransaction<T>(writer: pg.Pool, work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await writer.connect();
  } catch (error) {
    throw translate(error);
  }
  // A checked-out client has no pool listener: without ours, a connection dying mid-transaction would be an
  // unhandled 'error' event (the end of the process). The statement in flight fails on its own.
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken = error;
  };
  client.on("error", onError);
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
    // A failed ROLLBACK means the connection is gone: the server rolls back on its own, the pool drops the client.
    await client.query("ROLLBACK").catch((rollbackError: Error) => {
      broken ??= rollbackError;
    });
    throw error;
  } finally {
    client.removeListener("error", onError);
    client.release(broken);
  }
}

/**
 * Open a PostgreSQL server as a {@link SqlDatabase}: one writer connection (a pool of one, so writes and
 * transactions run one at a time, in call order, as on PGlite) and up to four readers. Checks the URL first,
 * then connects, retrying with backoff while the server is unreachable (at most `startTimeoutMs`).
 *
 * A connection lost later (server restarted or dropped) fails the statements in flight with
 * `SANDBOX_DATABASE_UNAVAILABLE` and is replaced on the next statement; the first loss is logged, and so is the
 * first statement that works again.
 */
export async function openPostgres({
  url,
  startTimeoutMs,
  log,
}: {
  url: string;
  startTimeoutMs: number;
  log: (message: string) => void;
}): Promise<SqlDatabase> {
  checkDatabaseUrl(url);
  const writer = new pg.Pool(poolConfig(url, 1));
  const readers = new pg.Pool(poolConfig(url, READERS));
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
  writer.on("error", noteLost);
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
  try {
    await connectWithRetry({
      url,
      timeoutMs: startTimeoutMs,
      log,
      connect: async () => (await writer.connect()).release(),
    });
  } catch (error) {
    await Promise.allSettled([writer.end(), readers.end()]);
    throw error;
  }
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
    query: (sql, params) => ifOpen(() => run(writer, sql, params)),
    read: (sql, params) => ifOpen(() => run(readers, sql, params)),
    exec: async (sql) => {
      await ifOpen(() => run(writer, sql, undefined));
    },
    transaction: (work) => ifOpen(() => inTransaction(writer, work)),
    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([writer.end(), readers.end()]);
    },
  };
}
