import { hostname } from "node:os";
import pg from "pg";

const INT8 = 20;
const INT8_ARRAY = 1016;

/** int8 as PGlite reads it: a number when it is a safe integer, else a bigint. */
const parseInt8 = (text: string): number | bigint => {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : BigInt(text);
};

/**
 * The type parsers of every connection the sandbox opens, given per pool or client (never set globally: an
 * application that imports the sandbox keeps its own `pg` parsers). Everything else keeps pg's defaults, which
 * already match PGlite's (numeric as text, jsonb parsed, timestamptz as a Date, int4 as a number).
 */
const defaultParser = pg.types.getTypeParser as (oid: number, format?: "text" | "binary") => unknown;

export const PG_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (oid === INT8) return parseInt8;
    if (oid === INT8_ARRAY) {
      const parseArray = defaultParser(INT8_ARRAY) as (text: string) => (string | null)[];
      return (text: string) => parseArray(text).map((v) => (v === null ? null : parseInt8(v)));
    }
    return defaultParser(oid, format);
  }) as pg.CustomTypesConfig["getTypeParser"],
};

/** What each sandbox connection calls itself on the server (`pg_stat_activity.application_name`). */
export const APPLICATION_NAME = `swapintent-sandbox pid=${process.pid} host=${hostname()}`.slice(0, 63);

/** Server answers that retrying cannot fix: bad password or user, no such database, no permission. */
const REFUSED_SQLSTATES = new Set(["28000", "28P01", "3D000", "42501"]);

/** Socket errors of a server that is down, restarting or unreachable. */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "ENOTFOUND",
]);

/** The driver code of an error (a socket code or a SQLSTATE), or "unknown". */
export function driverCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "unknown";
}

/**
 * True when `error` says the server or the connection went away (rather than a statement failing): socket
 * errors, SQLSTATE class 08 (connection exception), 57P01-57P03 (shut down, crashed, starting), and pg's own
 * "Connection terminated" / connection-timeout / query-timeout errors, which carry no code.
 */
export function isConnectionLost(error: unknown): boolean {
  const code = driverCode(error);
  if (CONNECTION_CODES.has(code) || code.startsWith("08") || /^57P0[1-3]$/.test(code)) return true;
  const message = error instanceof Error ? error.message : "";
  return /Connection terminated|timeout exceeded when trying to connect|not queryable|Connection closed|Query read timeout/i.test(
    message,
  );
}

/** True when the server refused us for good (credentials, database name, permission). */
export function isRefused(error: unknown): boolean {
  return REFUSED_SQLSTATES.has(driverCode(error));
}

/** Pool options shared by the writer and the readers. */
export function poolConfig(url: string, max: number): pg.PoolConfig {
  return {
    connectionString: url,
    max,
    types: PG_TYPES,
    application_name: APPLICATION_NAME,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
}

/**
 * Drop a connection at once: destroy its socket (pg's own way out of a stuck connection; it has no public call for
 * it). A polite `end()` waits for the server, which a hung server never answers. The statement in flight, if any,
 * fails as a lost connection and the client emits "end".
 */
export function destroyConnection(client: pg.Client): void {
  (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
}

/** How long closing waits for a server to answer before its connections are dropped. */
const CLOSE_WAIT_MS = 2_000;

/** `client.end()`, or, if the server has not answered within {@link CLOSE_WAIT_MS}, drop the connection. */
export async function endConnection(client: pg.Client): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      destroyConnection(client);
      resolve();
    }, CLOSE_WAIT_MS);
  });
  await Promise.race([client.end().catch(() => {}), gaveUp]);
  clearTimeout(timer);
}

/** `pool.end()`, or, if the server has not answered within {@link CLOSE_WAIT_MS}, drop every connection it holds. */
export function endPool(pool: pg.Pool): () => Promise<void> {
  const open = new Set<pg.Client>();
  pool.on("connect", (client) => open.add(client));
  pool.on("remove", (client) => open.delete(client));
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        for (const client of open) destroyConnection(client);
        resolve();
      }, CLOSE_WAIT_MS);
    });
    await Promise.race([pool.end().catch(() => {}), gaveUp]);
    clearTimeout(timer);
  };
}
