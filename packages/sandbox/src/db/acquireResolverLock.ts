import pg from "pg";
import { connectWithRetry } from "./connectWithRetry.js";
import { createDatabaseError, redactDatabaseUrl } from "./databaseError.js";
import { APPLICATION_NAME, driverCode, PG_TYPES } from "./postgresConnection.js";

/**
 * The advisory lock key (two int4s: "SWAP" in ASCII, then 1 for "resolver") every sandbox takes on its database.
 * Session-level: the server releases it when the holder's connection ends, so a SIGKILLed holder blocks nobody.
 */
const LOCK_KEY = [0x53574150, 1] as const;

/** The single-resolver lock of a database (see {@link acquireResolverLock}). */
export interface ResolverLock {
  /** True while this process holds the lock; the resolver pauses whenever it is false. */
  held(): boolean;
  /**
   * Counts acquisitions: it changes when the lock was lost and taken again, after which another sandbox may have
   * written (the store then drops its status cache).
   */
  generation(): number;
  /** Release the lock and close its connection. */
  release(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Who holds the lock, as its connection named itself; null when unknown (no permission, or just released). */
async function findHolder(client: pg.Client): Promise<string | null> {
  const r = await client
    .query<{ name: string }>(
      `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.classid = $1 AND l.objid = $2 AND l.granted LIMIT 1`,
      [LOCK_KEY[0], LOCK_KEY[1]],
    )
    .catch(() => ({ rows: [] as { name: string }[] }));
  const name = r.rows[0]?.name;
  return name ? name : null;
}

async function tryLock(client: pg.Client): Promise<boolean> {
  const r = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1, $2) AS ok", [
    LOCK_KEY[0],
    LOCK_KEY[1],
  ]);
  return r.rows[0]?.ok === true;
}

/** The lock's first connection, retried with backoff while the server is unreachable (see `connectWithRetry`). */
async function firstConnection(
  url: string,
  timeoutMs: number,
  log: (message: string) => void,
): Promise<pg.Client> {
  let client: pg.Client | undefined;
  await connectWithRetry({
    url,
    timeoutMs,
    log,
    connect: async () => {
      client = await connect(url);
    },
  });
  if (!client) throw new Error("unreachable: connectWithRetry resolved without a connection");
  return client;
}

/** Poll until `client` holds the lock; without `wait`, throw `SANDBOX_DATABASE_LOCKED` (closing it) instead. */
async function waitForLock({
  client,
  url,
  wait,
  log,
  pollMs,
}: {
  client: pg.Client;
  url: string;
  wait: boolean;
  log: (message: string) => void;
  pollMs: number;
}): Promise<void> {
  const shownUrl = redactDatabaseUrl(url);
  let lastLogMs = 0;
  while (!(await tryLock(client))) {
    const holder = await findHolder(client);
    if (!wait) {
      await client.end().catch(() => {});
      throw createDatabaseError(
        "SANDBOX_DATABASE_LOCKED",
        "Another sandbox resolves on this database (its lock is held); refusing to start.",
        { url: shownUrl, holder },
      );
    }
    if (Date.now() - lastLogMs >= 60_000) {
      lastLogMs = Date.now();
      log(
        `another sandbox (${holder ?? "unknown"}) resolves on ${shownUrl}; waiting for it to stop (--no-wait refuses instead)`,
      );
    }
    await sleep(pollMs);
  }
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: url,
    types: PG_TYPES,
    application_name: APPLICATION_NAME,
    connectionTimeoutMillis: 5_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  client.on("error", () => {}); // reported through "end", below
  await client.connect();
  return client;
}

/**
 * Take the database's single-resolver lock on a connection of its own. When another sandbox holds it: with
 * `wait`, log who holds it (once, then every minute) and poll every `pollMs` until it is free; without, throw
 * `SANDBOX_DATABASE_LOCKED`. Call it before migrating and before serving: a second sandbox must neither resolve nor
 * answer requests (each sandbox's status cache assumes it is the database's only writer).
 *
 * When the lock's connection drops (server restarted), the lock is gone: {@link ResolverLock.held} turns false,
 * the resolver pauses, and the lock is taken again as soon as the server is back (if another sandbox took it
 * first, this one stays paused and says so).
 */
export async function acquireResolverLock({
  url,
  wait,
  log,
  pollMs = 1_000,
  startTimeoutMs = 60_000,
}: {
  url: string;
  wait: boolean;
  log: (message: string) => void;
  pollMs?: number;
  /** How long to retry the lock's first connection while the server is unreachable. */
  startTimeoutMs?: number;
}): Promise<ResolverLock> {
  let client = await firstConnection(url, startTimeoutMs, log);
  await waitForLock({ client, url, wait, log, pollMs });
  let held = true;
  let generation = 1;
  let released = false;

  /** After a lost connection: reconnect with backoff and take the lock again. */
  const regain = async () => {
    let delayMs = 200;
    let toldTaken = false;
    while (!released) {
      await sleep(delayMs);
      delayMs = Math.min(delayMs * 2, 5_000);
      let next: pg.Client | undefined;
      try {
        next = await connect(url);
        if (released) return void (await next.end().catch(() => {}));
        if (await tryLock(next)) {
          client = next;
          client.once("end", onEnd);
          held = true;
          generation++;
          log("resolver lock taken again: the resolver resumes");
          return;
        }
        if (!toldTaken) {
          toldTaken = true;
          log(
            `another sandbox (${(await findHolder(next)) ?? "unknown"}) took the resolver lock; this one stays paused`,
          );
        }
        await next.end().catch(() => {});
        delayMs = pollMs;
      } catch (error) {
        await next?.end().catch(() => {});
        if (delayMs >= 5_000) log(`resolver lock: database still unreachable (${driverCode(error)})`);
      }
    }
  };
  const onEnd = () => {
    if (released) return;
    held = false;
    log("lost the resolver lock's connection: the resolver pauses until the database is back");
    void regain();
  };
  client.once("end", onEnd);

  return {
    held: () => held,
    generation: () => generation,
    async release() {
      if (released) return;
      released = true;
      held = false;
      await client.end().catch(() => {});
    },
  };
}
