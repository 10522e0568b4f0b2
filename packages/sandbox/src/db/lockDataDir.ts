import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createDatabaseError } from "./databaseError.js";

/** How often a sandbox waiting for a data dir in use looks again, ms. */
const POLL_MS = 250;
/** How often the wait is logged again, ms. */
const LOG_EVERY_MS = 60_000;
/** How often a holder touches its lock file (its modification time), ms. */
export const LOCK_REFRESH_MS = 5_000;
/**
 * A lock file not touched for this long has no sandbox behind it when its holder cannot be checked from here, ms:
 * another host wrote it (a killed container's volume; its successor has another host name), or it names no holder
 * (empty after a crash between creating and writing it, garbled).
 */
export const LOCK_STALE_MS = 60_000;

/** The tokens of the locks this process holds: a lock naming this pid with another token is an earlier process's. */
const heldHere = new Set<string>();

/** Who holds a data dir: the lock file's content. */
interface DataDirHolder {
  pid: number;
  host: string;
  /** Unique per lock taken, so a lock is never mistaken for another one of the same pid. */
  token: string;
  /** When the holder's process started (see {@link processStart}), where it can be read. */
  since?: string;
}

/** The holder's name in logs and errors, as a server lock's holder is named. */
const describeHolder = (h: DataDirHolder) => `swapintent-sandbox pid=${h.pid} host=${h.host}`;

/** A lock file's content that names no holder (empty while being written, garbled, not ours). */
const UNKNOWN_HOLDER: DataDirHolder = { pid: 0, host: "unknown", token: "" };

function parseHolder(content: string): DataDirHolder | undefined {
  try {
    const { pid, host, token, since } = JSON.parse(content) as Partial<DataDirHolder>;
    if (typeof pid === "number" && typeof host === "string" && typeof token === "string")
      return { pid, host, token, ...(typeof since === "string" ? { since } : {}) };
  } catch {
    // being written, or not ours: held by nobody we know
  }
  return undefined;
}

/** The lock file as found: its content and when it was last touched; undefined when it is gone. */
interface LockFile {
  content: string;
  mtimeMs: number;
}

function readLockFile(path: string): LockFile | undefined {
  try {
    return { mtimeMs: statSync(path).mtimeMs, content: readFileSync(path, "utf8") };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error; // a directory, an unreadable file: not a lock we can judge (see lockDataDir)
  }
}

/**
 * Whether the lock file may still have a sandbox behind it. A holder on this host is checked: not if it names this
 * process but was not taken by it (a restarted container: same pid, same host name), nor if its pid is dead, nor if
 * its pid now runs a process started at another time (the pid was reused); a holder that runs but is frozen
 * (SIGSTOP, a debugger) keeps it. Another host's holder, or a file with no holder in it (empty after a crash between
 * creating and writing it, garbled), cannot be checked from here: only the file's age tells ({@link LOCK_STALE_MS}).
 */
function isAlive(holder: DataDirHolder | undefined, file: LockFile): boolean {
  if (holder !== undefined && holder.host === hostname()) return runsHere(holder);
  return Date.now() - file.mtimeMs <= LOCK_STALE_MS;
}

function runsHere(holder: DataDirHolder): boolean {
  if (holder.pid === process.pid) return heldHere.has(holder.token);
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false; // EPERM: alive, another user's
  }
  const since = processStart(holder.pid);
  return holder.since === undefined || since === undefined || since === holder.since;
}

/**
 * When process `pid` started, as Linux counts it (clock ticks since boot, /proc/<pid>/stat field 22), to tell a
 * holder from a later process given its pid; undefined elsewhere.
 */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // fields after the command name, which is in parentheses and may hold spaces: state is field 3, starttime 22
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

/** Create the lock file with `content`, atomically (`wx`: it fails with EEXIST when the file exists); true when made. */
function createExclusively(path: string, content: string): boolean {
  try {
    writeFileSync(path, content, { flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/**
 * Remove the stale lock `found`, under `<path>.takeover` (created exclusively): only one starter removes a stale lock
 * at a time, and only if it is still `found` once it holds that guard, so a lock another starter has just taken over
 * is never removed. A guard left by a starter killed inside this function is removed once stale. Nothing is removed
 * when another starter holds the guard: the caller tries again.
 */
function removeStale(path: string, found: LockFile, token: string): void {
  const guard = `${path}.takeover`;
  if (!createExclusively(guard, token)) {
    const left = readLockFile(guard);
    if (left !== undefined && Date.now() - left.mtimeMs > LOCK_STALE_MS) unlinkQuietly(guard);
    return;
  }
  try {
    const now = readLockFile(path);
    // gone meanwhile (its holder, only slow, released it) is as good as removed
    if (now !== undefined && now.content === found.content && now.mtimeMs === found.mtimeMs)
      unlinkQuietly(path);
  } finally {
    unlinkQuietly(guard);
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone meanwhile
  }
}

/**
 * One attempt: create the lock file (a reader that finds it before its content is written takes it as held). A stale
 * lock (see `isAlive`) is removed first (see {@link removeStale}). Returns undefined when taken, or the holder.
 */
function tryLock(path: string, mine: DataDirHolder): DataDirHolder | undefined {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createExclusively(path, JSON.stringify(mine))) return undefined;
    const found = readLockFile(path);
    if (found === undefined) continue; // released meanwhile
    const holder = parseHolder(found.content);
    if (isAlive(holder, found)) return holder ?? UNKNOWN_HOLDER;
    removeStale(path, found, mine.token);
  }
  const last = readLockFile(path);
  return (last && parseHolder(last.content)) ?? UNKNOWN_HOLDER;
}

/**
 * Take `<dataDir>/sandbox.lock` for this process, so two sandboxes never run on one data dir (each would open its own
 * PGlite over the same files and its engines over the same state). A lock whose holder is gone (a SIGKILLed sandbox
 * on this host) is taken over. While another sandbox holds it, wait up to `waitMs` (logging the holder at once and
 * then once a minute), then throw `SANDBOX_DATABASE_LOCKED`; `waitMs` 0 refuses at once. Returns the release.
 */
export async function lockDataDir({
  dataDir,
  waitMs,
  log,
}: {
  dataDir: string;
  waitMs: number;
  log: (message: string) => void;
}): Promise<{ release(): void }> {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, "sandbox.lock");
  const mine: DataDirHolder = {
    pid: process.pid,
    host: hostname(),
    token: randomBytes(12).toString("hex"),
    since: processStart(process.pid),
  };
  const started = Date.now();
  let loggedAt = Number.NEGATIVE_INFINITY;
  for (;;) {
    const holder = tryLockOrExplain(path, mine, dataDir);
    if (holder === undefined) break;
    const waited = Date.now() - started;
    if (waited >= waitMs)
      throw createDatabaseError(
        "SANDBOX_DATABASE_LOCKED",
        `Another sandbox (${describeHolder(holder)}) runs on the data dir ${dataDir}.`,
        {
          url: pathToFileURL(dataDir).href,
          holder: describeHolder(holder),
          waitedSecs: Math.round(waited / 1000),
        },
      );
    if (Date.now() - loggedAt >= LOG_EVERY_MS) {
      loggedAt = Date.now();
      log(
        `another sandbox (${describeHolder(holder)}) runs on the data dir ${dataDir}; waiting for it to stop (${Math.round(waited / 1000)} s of at most ${Math.round(waitMs / 1000)} s, --lock-timeout)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, waitMs - waited)));
  }
  heldHere.add(mine.token);
  const refresh = setInterval(() => touchIfMine(path, mine), LOCK_REFRESH_MS);
  refresh.unref();
  return {
    release() {
      clearInterval(refresh);
      heldHere.delete(mine.token);
      if (readHolderQuietly(path)?.token === mine.token) unlinkQuietly(path);
    },
  };
}

/** Touch the lock file while it is still `mine`, so waiters see its holder runs ({@link LOCK_STALE_MS}). */
function touchIfMine(path: string, mine: DataDirHolder): void {
  if (readHolderQuietly(path)?.token !== mine.token) return;
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // gone meanwhile: nothing to keep fresh
  }
}

function readHolderQuietly(path: string): DataDirHolder | undefined {
  try {
    return parseHolder(readFileSync(path, "utf8"));
  } catch {
    return undefined; // gone, or no readable file
  }
}

/**
 * {@link tryLock}, with a lock path that is no readable file (a directory, a file this user may not read) or a data dir
 * this user cannot write refused at once as `SANDBOX_DATABASE_LOCKED` naming it (it was a raw error, or a wait of
 * --lock-timeout for a holder named `pid=0 host=unknown`): no sandbox will ever free it.
 */
function tryLockOrExplain(path: string, mine: DataDirHolder, dataDir: string): DataDirHolder | undefined {
  try {
    return tryLock(path, mine);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unknown";
    throw createDatabaseError(
      "SANDBOX_DATABASE_LOCKED",
      `The data dir's lock file ${path} cannot be created, read or replaced (${code}): the data dir must be writable, and that path a file or nothing.`,
      { url: pathToFileURL(dataDir).href, holder: null, waitedSecs: 0 },
      error,
    );
  }
}
