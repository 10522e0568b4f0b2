import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createDatabaseError } from "./databaseError.js";

/** How often a sandbox waiting for a data dir in use looks again, ms. */
const POLL_MS = 250;
/** How often the wait is logged again, ms. */
const LOG_EVERY_MS = 60_000;

/** Who holds a data dir: the lock file's content. */
interface DataDirHolder {
  pid: number;
  host: string;
  /** Unique per lock taken, so a lock is never mistaken for another one of the same pid. */
  token: string;
}

/** The holder's name in logs and errors, as a server lock's holder is named. */
const describeHolder = (h: DataDirHolder) => `swapintent-sandbox pid=${h.pid} host=${h.host}`;

function readHolder(path: string): DataDirHolder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<DataDirHolder>;
    if (typeof parsed.pid === "number" && typeof parsed.host === "string" && typeof parsed.token === "string")
      return parsed as DataDirHolder;
  } catch {
    // gone meanwhile, or not ours: treated as held by nobody we know
  }
  return undefined;
}

/** Whether `holder` may still run: another host's cannot be checked from here, so it counts as alive. */
function isAlive(holder: DataDirHolder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // alive, another user's
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
 * One attempt: create the lock file (a reader that finds it before its content is written takes it as held). A lock
 * whose holder is dead (a SIGKILLed sandbox) is moved aside first, and only if it is still the dead holder's after the
 * move (another starter may have replaced it meanwhile; then it is put back). Returns undefined when taken, or the
 * live holder.
 */
function tryLock(path: string, mine: DataDirHolder): DataDirHolder | undefined {
  const unknown: DataDirHolder = { pid: 0, host: "unknown", token: "" };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createExclusively(path, JSON.stringify(mine))) return undefined;
    const holder = readHolder(path);
    if (holder === undefined || isAlive(holder)) return holder ?? unknown;
    const aside = `${path}.${mine.token}.stale`;
    try {
      renameSync(path, aside);
    } catch {
      continue; // another starter moved it first
    }
    const moved = readFileSync(aside, "utf8");
    if (readHolder(aside)?.token !== holder.token) createExclusively(path, moved); // not the dead one's: put it back
    unlinkSync(aside);
  }
  return readHolder(path) ?? unknown;
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
  const mine: DataDirHolder = { pid: process.pid, host: hostname(), token: randomBytes(12).toString("hex") };
  const started = Date.now();
  let loggedAt = Number.NEGATIVE_INFINITY;
  for (;;) {
    const holder = tryLock(path, mine);
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
  return {
    release() {
      if (readHolder(path)?.token === mine.token) unlinkSync(path);
    },
  };
}
