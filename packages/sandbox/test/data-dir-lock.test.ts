import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { isDatabaseError } from "../src/db/databaseError.js";
import { startTestSandbox, type TestSandbox } from "./support/harness.js";
import { type SpawnedSandbox, spawnSandbox } from "./support/spawnSandbox.js";

const dirs: string[] = [];
const open: (TestSandbox | SpawnedSandbox)[] = [];
afterAll(async () => {
  await Promise.all(open.map((s) => ("kill" in s ? s.kill() : s.close())));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function newDataDir() {
  const dir = mkdtempSync(join(tmpdir(), "sandbox-dir-lock-"));
  dirs.push(dir);
  return dir;
}

/** What a start that must fail failed with. */
async function startFailure(promise: Promise<TestSandbox>): Promise<unknown> {
  return promise.then(
    (started) => {
      open.push(started);
      return "started";
    },
    (error: unknown) => error,
  );
}

/**
 * Two sandboxes on one data dir (two CI jobs given the same `--data-dir`, a restart while the old process still
 * runs) both started, each with its own PGlite over the same files: each answered from its own copy and wrote over
 * the other's (both moved the clock 10 s; a restart found 10 s, not 20), and their engines shared state files. As
 * with a PostgreSQL server's lock, the second one now waits for the first (or refuses at once with --no-wait).
 * One data dir for the whole file (creating one costs seconds).
 */
const dataDir = newDataDir();

test("a second sandbox on a data dir in use refuses at once with --no-wait, or after --lock-timeout (SANDBOX_DATABASE_LOCKED, naming the holder); by default it waits and starts once the first one stops, on what it stored", async () => {
  const first = await startTestSandbox({ dataDir });
  open.push(first);
  expect((await first.request("POST", "/sandbox/clock", { advance_secs: 10 })).status).toBe(200);
  const refused = await startFailure(startTestSandbox({ dataDir, waitForDatabaseLock: false }));
  expect(isDatabaseError(refused, "SANDBOX_DATABASE_LOCKED")).toBe(true);
  if (!isDatabaseError(refused, "SANDBOX_DATABASE_LOCKED")) return;
  expect(refused.details.holder).toContain(`pid=${process.pid}`);
  expect(refused.details.waitedSecs).toBe(0);
  const timedOut = await startFailure(startTestSandbox({ dataDir, databaseLockTimeoutSecs: 1 }));
  expect(isDatabaseError(timedOut, "SANDBOX_DATABASE_LOCKED")).toBe(true);
  // the first one is untouched and keeps serving
  expect((await first.request("GET", "/sandbox/clock")).body.offset_ms).toBe(10_000);

  let secondStarted = false;
  const second = startTestSandbox({ dataDir, databaseLockTimeoutSecs: 30 }).then((s) => {
    secondStarted = true;
    open.push(s);
    return s;
  });
  await new Promise((r) => setTimeout(r, 500));
  expect(secondStarted).toBe(false);
  await first.close();
  const next = await second;
  expect((await next.request("POST", "/sandbox/clock", { advance_secs: 10 })).body.offset_ms).toBe(20_000);
  await next.close();
}, 60_000);

test("a lock left by a SIGKILLed sandbox does not hold the next one up", async () => {
  const killed = await spawnSandbox({ args: ["--port", "0", "--data-dir", dataDir, "--dev"] });
  open.push(killed);
  await killed.kill("SIGKILL");
  const next = await startTestSandbox({ dataDir, waitForDatabaseLock: false });
  open.push(next);
  expect((await next.request("GET", "/sandbox/clock")).body.offset_ms).toBe(20_000);
}, 60_000);
