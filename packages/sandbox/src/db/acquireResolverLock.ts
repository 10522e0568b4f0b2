import pg from "pg";
import { connectWithRetry } from "./connectWithRetry.js";
import { createDatabaseError, redactDatabaseUrl } from "./databaseError.js";
import {
  APPLICATION_NAME,
  destroyConnection,
  driverCode,
  endConnection,
  isConnectionLost,
  PG_TYPES,
} from "./postgresConnection.js";

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
  /**
   * Run `work` on the lock's own connection, alone (one call at a time, in call order). This is the sandbox's
   * writer: a statement on this session runs only while the session holds the lock, so a sandbox that lost the lock
   * cannot write beside the one that took it. Fails with `SANDBOX_DATABASE_UNAVAILABLE` (driver code `lock_lost`)
   * while the lock is not held; the connection dying mid-`work` fails the statement, and the lock is taken again in
   * the background (see {@link acquireResolverLock}).
   */
  use<T>(work: (client: pg.Client) => Promise<T>): Promise<T>;
  /**
   * Run `reload` whenever the lock is taken again, before {@link ResolverLock.held} turns true: nothing is written or
   * resolved on what this sandbox read before it lost the lock. When a reload fails, the new connection is dropped and
   * the lock is taken again later (and the reloads run again).
   */
  onRetaken(reload: () => Promise<void>): void;
  /** Release the lock and close its connection (after the call in progress). */
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

/**
 * Poll until a connection holds the lock, for at most `waitMs` (0: refuse at once); then throw
 * `SANDBOX_DATABASE_LOCKED` (closing the connection). While waiting, say who holds it at once and then every minute.
 * A connection lost while waiting (the server restarted, the backend ended) is replaced as the first one was
 * (`connectWithRetry`, within what is left of the wait), and the wait goes on. Returns the connection holding it.
 */
async function waitForLock({
  client: first,
  url,
  waitMs,
  log,
  pollMs,
}: {
  client: pg.Client;
  url: string;
  waitMs: number;
  log: (message: string) => void;
  pollMs: number;
}): Promise<pg.Client> {
  const shownUrl = redactDatabaseUrl(url);
  const startedMs = Date.now();
  let lastLogMs = 0;
  let client = first;
  const attempt = async (): Promise<boolean> => {
    try {
      return await tryLock(client);
    } catch (error) {
      if (!isConnectionLost(error)) throw error;
      await client.end().catch(() => {});
      log(`lost the connection while waiting for the resolver lock (${driverCode(error)}); reconnecting`);
      client = await firstConnection(url, Math.max(waitMs - (Date.now() - startedMs), 1_000), log);
      return tryLock(client);
    }
  };
  while (!(await attempt())) {
    const holder = await findHolder(client);
    const waitedMs = Date.now() - startedMs;
    if (waitedMs >= waitMs) {
      await client.end().catch(() => {});
      throw createDatabaseError(
        "SANDBOX_DATABASE_LOCKED",
        waitMs === 0
          ? "Another sandbox resolves on this database (its lock is held); refusing to start."
          : `Another sandbox still resolves on this database after ${Math.round(waitedMs / 1000)} s of waiting (--lock-timeout); giving up.`,
        { url: shownUrl, holder, waitedSecs: Math.round(waitedMs / 1000) },
      );
    }
    if (Date.now() - lastLogMs >= 60_000) {
      lastLogMs = Date.now();
      log(
        `another sandbox (${holder ?? "unknown"}) resolves on ${shownUrl}; waiting for it to stop (${Math.round(waitedMs / 1000)} s of at most ${Math.round(waitMs / 1000)} s, --lock-timeout)`,
      );
    }
    await sleep(Math.min(pollMs, waitMs - waitedMs));
  }
  return client;
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
 * After the lock's connection was lost: reconnect with backoff (200 ms doubling to 5 s; every `pollMs` once the server
 * answers) until the lock is taken on a new connection, which it returns; undefined once `stopped()` (the connection
 * is closed, so a lock taken just then is released). Says once when another sandbox holds the lock meanwhile.
 */
async function regainLock({
  url,
  pollMs,
  log,
  stopped,
}: {
  url: string;
  pollMs: number;
  log: (message: string) => void;
  stopped: () => boolean;
}): Promise<pg.Client | undefined> {
  let delayMs = 200;
  let toldTaken = false;
  while (!stopped()) {
    await sleep(delayMs);
    delayMs = Math.min(delayMs * 2, 5_000);
    let next: pg.Client | undefined;
    try {
      next = await connect(url);
      if (!stopped() && (await tryLock(next)) && !stopped()) return next;
      if (!stopped() && !toldTaken) {
        toldTaken = true;
        log(
          `another sandbox (${(await findHolder(next)) ?? "unknown"}) took the resolver lock; this one stays paused and writes nothing`,
        );
      }
      await next.end().catch(() => {});
      delayMs = pollMs;
    } catch (error) {
      await next?.end().catch(() => {});
      if (delayMs >= 5_000) log(`resolver lock: database still unreachable (${driverCode(error)})`);
    }
  }
  return undefined;
}

/**
 * Run `work` on `client`; if it has not settled after `timeoutMs`, destroy the connection's socket (a hung server
 * never answers, and a polite close would wait for it), which fails the statement in flight as a lost connection.
 */
async function withTimeout<T>(
  client: pg.Client,
  timeoutMs: number,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const timer = setTimeout(() => destroyConnection(client), timeoutMs);
  try {
    return await work(client);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs one piece of work at a time on the lock's connection, in call order. */
function createQueue() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const next = tail.then(work);
    tail = next.catch(() => {});
    return next;
  };
}

/**
 * Take the database's single-resolver lock on a connection of its own, which is also the sandbox's only writer
 * ({@link ResolverLock.use}). When another sandbox holds it: log who holds it (at once, then every minute) and poll
 * every `pollMs` for at most `waitMs` (0: refuse at once), then throw `SANDBOX_DATABASE_LOCKED`. Call it before
 * migrating and before serving: a second sandbox must neither resolve nor answer requests (each sandbox's status
 * cache assumes it is the database's only writer).
 *
 * When the lock's connection drops (server restarted, backend terminated), the lock is gone: {@link ResolverLock.held}
 * turns false, writes fail, the resolver pauses, and the lock is taken again on a new connection as soon as the
 * server is back (if another sandbox took it first, this one stays paused and says so).
 */
export async function acquireResolverLock({
  url,
  waitMs,
  log,
  pollMs = 1_000,
  startTimeoutMs = 60_000,
  statementTimeoutMs = 15_000,
}: {
  url: string;
  /** How long to wait for another sandbox's lock, ms; 0 refuses at once (`--no-wait`). */
  waitMs: number;
  log: (message: string) => void;
  pollMs?: number;
  /** How long to retry the lock's first connection while the server is unreachable. */
  startTimeoutMs?: number;
  /**
   * How long one {@link ResolverLock.use} may run before the connection is dropped (a server that hangs): the work
   * fails as unavailable and the lock is taken again on a new connection once the server answers.
   */
  statementTimeoutMs?: number;
}): Promise<ResolverLock> {
  let client = await waitForLock({
    client: await firstConnection(url, startTimeoutMs, log),
    url,
    waitMs,
    log,
    pollMs,
  });
  let held = true;
  let generation = 1;
  let released = false;
  const queue = createQueue();
  const reloads: (() => Promise<void>)[] = [];

  const onEnd = () => {
    if (released) return;
    held = false;
    log(
      "lost the resolver lock's connection: writes fail and the resolver pauses until the lock is taken again",
    );
    void regainLock({ url, pollMs, log, stopped: () => released }).then(async (next) => {
      if (!next) return;
      if (released) return void (await next.end().catch(() => {}));
      client = next;
      client.once("end", onEnd);
      try {
        for (const reload of reloads) await reload();
      } catch (error) {
        log(
          `resolver lock taken again, but reading the sandbox's state failed (${driverCode(error)}): taking it again later`,
        );
        destroyConnection(next);
        return;
      }
      if (released) return;
      held = true;
      generation++;
      log("resolver lock taken again (state read again): the resolver resumes");
    });
  };
  client.once("end", onEnd);

  return {
    held: () => held,
    generation: () => generation,
    onRetaken: (reload) => void reloads.push(reload),
    use: (work) =>
      queue(() => {
        if (!held)
          throw createDatabaseError(
            "SANDBOX_DATABASE_UNAVAILABLE",
            released
              ? "The database was closed."
              : "This sandbox does not hold the database's resolver lock (its connection was lost); nothing was written.",
            { driverCode: released ? "closed" : "lock_lost" },
          );
        return withTimeout(client, statementTimeoutMs, work);
      }),
    release: () =>
      queue(async () => {
        if (released) return;
        released = true;
        held = false;
        await endConnection(client);
      }),
  };
}
