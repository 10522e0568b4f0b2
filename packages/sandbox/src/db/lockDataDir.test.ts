import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, afterEach, expect, test, vi } from "vitest";
import { isDatabaseError } from "./databaseError.js";
import { LOCK_REFRESH_MS, LOCK_STALE_MS, lockDataDir } from "./lockDataDir.js";

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.useRealTimers();
});

function newDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "lock-data-dir-"));
  dirs.push(dir);
  return dir;
}

/** A lock file as another process left it, last written `ageMs` ago. */
function leaveLock({ content, ageMs }: { content: string; ageMs: number }): string {
  const dataDir = newDataDir();
  const path = join(dataDir, "sandbox.lock");
  writeFileSync(path, content);
  const at = new Date(Date.now() - ageMs);
  utimesSync(path, at, at);
  return dataDir;
}

const holderJson = (pid: number, host: string) =>
  JSON.stringify({ pid, host, token: "0123456789abcdef01234567" });

/** Take the lock without waiting: "taken" (released again at once) or the error's code. */
async function takeAtOnce(dataDir: string): Promise<string> {
  try {
    const lock = await lockDataDir({ dataDir, waitMs: 0, log: () => {} });
    const mine = JSON.parse(readFileSync(join(dataDir, "sandbox.lock"), "utf8")) as { pid: number };
    lock.release();
    return mine.pid === process.pid ? "taken" : "taken, but the file is not ours";
  } catch (error) {
    return isDatabaseError(error) ? error.code : String(error);
  }
}

/** A live process of this host that is not a sandbox (a pid the dead holder's was reused for). */
function liveUnrelatedPid(): number {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
  children.push(child);
  return child.pid!;
}

const stale = LOCK_STALE_MS + 60_000;

/**
 * A container restarted on the same data dir (its volume) runs the sandbox as the same pid on the same host name
 * (pid 1 or another small pid, the container's id as host): the old lock names a live process, this one. It was
 * taken as held: the restarted sandbox waited --lock-timeout (10 min) and failed. A lock of this pid that this
 * process did not take is an earlier process's.
 */
test("a lock naming this process's pid that this process never took (a restarted container) is taken over at once", async () => {
  expect(await takeAtOnce(leaveLock({ content: holderJson(process.pid, hostname()), ageMs: 1_000 }))).toBe(
    "taken",
  );
});

test("a second lock of the same data dir in this process is still refused (two sandboxes in one process)", async () => {
  const dataDir = newDataDir();
  const first = await lockDataDir({ dataDir, waitMs: 0, log: () => {} });
  expect(await takeAtOnce(dataDir)).toBe("SANDBOX_DATABASE_LOCKED");
  first.release();
  expect(await takeAtOnce(dataDir)).toBe("taken");
});

/** A process of this host that has exited (SIGKILLed): its pid runs nothing now. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  return child.pid!;
}

/**
 * A sandbox SIGKILLed on this host leaves a lock refreshed moments before: its successor takes it over at once rather
 * than waiting out LOCK_STALE_MS, as a lock of only a file's age would have it wait.
 */
test("a lock of this host whose holder is dead is taken over at once, however lately it was refreshed", async () => {
  const content = JSON.stringify({
    pid: await deadPid(),
    host: hostname(),
    token: "0123456789abcdef01234567",
  });
  expect(await takeAtOnce(leaveLock({ content, ageMs: 0 }))).toBe("taken");
});

/**
 * A pid is reused: the dead holder's pid now runs an unrelated process of this host, started after the holder wrote
 * its lock (the holder's start is in the lock). kill(pid, 0) answered "alive", so it was held for good.
 */
test("a lock whose pid now runs a process started at another time (pid reused) is taken over at once", async () => {
  const reused = JSON.stringify({
    pid: liveUnrelatedPid(),
    host: hostname(),
    token: "0123456789abcdef01234567",
    since: "1",
  });
  expect(await takeAtOnce(leaveLock({ content: reused, ageMs: 1_000 }))).toBe("taken");
});

/** A holder that is frozen (SIGSTOP, a debugger) still runs: its lock stays held however old the file is. */
test("a live holder of this host that is frozen keeps its lock, however long it was not refreshed", async () => {
  const dataDir = newDataDir();
  const holder = spawn(
    process.execPath,
    [
      "--conditions=swapintent-source",
      "--import",
      pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href,
      "--input-type=module",
      "-e",
      `import { lockDataDir } from ${JSON.stringify(pathToFileURL(fileURLToPath(new URL("./lockDataDir.ts", import.meta.url))).href)};
       await lockDataDir({ dataDir: ${JSON.stringify(dataDir)}, waitMs: 0, log: () => {} });
       process.stdout.write("held\\n");
       setInterval(() => {}, 1000);`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  children.push(holder);
  await new Promise<void>((resolve, reject) => {
    holder.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("held") && resolve());
    holder.once("exit", (code) => reject(new Error(`holder exited with ${code}`)));
  });
  holder.kill("SIGSTOP");
  const old = new Date(Date.now() - stale);
  utimesSync(join(dataDir, "sandbox.lock"), old, old);
  expect(await takeAtOnce(dataDir)).toBe("SANDBOX_DATABASE_LOCKED");
  holder.kill("SIGKILL");
  await new Promise((resolve) => holder.once("exit", resolve));
  expect(await takeAtOnce(dataDir)).toBe("taken"); // and once it is gone, at once
}, 20_000);

/**
 * A lock whose holder cannot be checked from here is refreshed by that holder every LOCK_REFRESH_MS: one not
 * refreshed for LOCK_STALE_MS has no sandbox behind it. Another host wrote it (a data dir on a volume a killed
 * container left, whose successor has another host name), or it names nobody (a holder killed between creating and
 * writing it, a file left empty by a crash or a full disk). Each was held for good: every later start waited
 * --lock-timeout and failed.
 */
test.each([
  ["another host", () => holderJson(4242, "ci-runner-container-1f2e3d")],
  ["an empty file", () => ""],
  ["a truncated file", () => holderJson(4242, hostname()).slice(0, 20)],
  ["garbage", () => "\u0000\u0000garbage"],
])("a lock not refreshed for LOCK_STALE_MS is taken over: %s", async (_name, content) => {
  expect(await takeAtOnce(leaveLock({ content: content(), ageMs: stale }))).toBe("taken");
});

test.each([
  ["a live process of this host (its start not recorded)", () => holderJson(liveUnrelatedPid(), hostname())],
  ["another host", () => holderJson(4242, "ci-runner-container-1f2e3d")],
  ["an empty file (its holder is writing it)", () => ""],
])("a lock refreshed lately is still held: %s", async (_name, content) => {
  expect(await takeAtOnce(leaveLock({ content: content(), ageMs: LOCK_REFRESH_MS }))).toBe(
    "SANDBOX_DATABASE_LOCKED",
  );
});

test("the holder refreshes its lock file while it runs, and stops when released", async () => {
  vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
  const dataDir = newDataDir();
  const path = join(dataDir, "sandbox.lock");
  const lock = await lockDataDir({ dataDir, waitMs: 0, log: () => {} });
  const old = new Date(Date.now() - stale);
  utimesSync(path, old, old);
  vi.advanceTimersByTime(LOCK_REFRESH_MS);
  expect(Date.now() - statSync(path).mtimeMs).toBeLessThan(LOCK_STALE_MS / 2);
  lock.release();
  expect(vi.getTimerCount()).toBe(0);
});

/**
 * A path no sandbox will ever free (a directory where the lock file belongs; a data dir this user cannot write) was
 * waited for as a lock of "pid=0 host=unknown" for --lock-timeout (10 min by default), or failed with a raw error.
 */
test("a directory where the lock file belongs is refused at once (no wait), naming the path", async () => {
  const dataDir = newDataDir();
  mkdirSync(join(dataDir, "sandbox.lock"));
  const at = new Date(Date.now() - stale);
  utimesSync(join(dataDir, "sandbox.lock"), at, at);
  const error = await lockDataDir({ dataDir, waitMs: 60_000, log: () => {} }).then(
    (lock) => lock.release(),
    (e: unknown) => e,
  );
  expect(isDatabaseError(error, "SANDBOX_DATABASE_LOCKED")).toBe(true);
  if (!isDatabaseError(error, "SANDBOX_DATABASE_LOCKED")) return;
  expect(error.details).toMatchObject({ holder: null, waitedSecs: 0 });
  expect(error.shortMessage).toContain(join(dataDir, "sandbox.lock"));
}, 20_000);
