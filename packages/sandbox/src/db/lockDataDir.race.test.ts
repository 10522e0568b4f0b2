import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test, vi } from "vitest";
import { LOCK_STALE_MS, lockDataDir } from "./lockDataDir.js";

/**
 * Runs just before the next move or removal of `sandbox.lock` itself (`rename`), or the next exclusive write, once
 * each (see the test).
 */
const before: { rename?: () => void; exclusiveWrite?: () => void } = {};
const moveHook = (from: fs.PathLike) => {
  const hook = String(from).endsWith("sandbox.lock") ? before.rename : undefined;
  if (hook) before.rename = undefined;
  hook?.();
};

vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs")>();
  return {
    ...real,
    renameSync: (from: fs.PathLike, to: fs.PathLike) => {
      moveHook(from);
      return real.renameSync(from, to);
    },
    unlinkSync: (path: fs.PathLike) => {
      moveHook(path);
      return real.unlinkSync(path);
    },
    writeFileSync: (...args: Parameters<typeof real.writeFileSync>) => {
      const options = args[2];
      const hook = typeof options === "object" && options?.flag === "wx" ? before.exclusiveWrite : undefined;
      if (hook) before.exclusiveWrite = undefined;
      hook?.();
      return real.writeFileSync(...args);
    },
  };
});

const dataDir = fs.mkdtempSync(join(tmpdir(), "lock-race-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/**
 * Three sandboxes start on a data dir whose lock is stale. B moved the stale lock aside; A took it over just before
 * B's move (so B moved A's fresh lock), and C created its own while A's was aside, so B's put-back found C's lock and
 * A's was gone: A and C both started on one PGlite data dir. Driven here in one process: each interleaving is run
 * from a hook on the file call it must come before.
 */
test("three sandboxes racing over a stale lock: at most one holds it", async () => {
  const path = join(dataDir, "sandbox.lock");
  fs.writeFileSync(path, JSON.stringify({ pid: 4242, host: "gone-container", token: "stale" }));
  const old = new Date(Date.now() - LOCK_STALE_MS - 60_000);
  fs.utimesSync(path, old, old);

  const taken: string[] = [];
  const start = (name: string) =>
    lockDataDir({ dataDir, waitMs: 0, log: () => {} }).then(
      () => taken.push(name),
      () => {},
    );
  const others: Promise<unknown>[] = [];
  before.rename = () => {
    // A starts just before B moves or removes the stale lock: it tries to take it over completely...
    others.push(start("A"));
    // ...and C starts just before B's next exclusive write (its put-back, or its own create).
    before.exclusiveWrite = () => {
      others.push(start("C"));
    };
  };
  await start("B");
  await Promise.all(others);
  expect(taken.length).toBeLessThanOrEqual(1);
  expect(taken.length).toBeGreaterThanOrEqual(1);
});

/**
 * The stale lock goes away on its own while a starter removes it (its holder, on another host, was only slow and
 * released it): the starter's removal found no file and failed the start with SANDBOX_DATABASE_LOCKED (ENOENT).
 */
test("a stale lock that disappears while a starter removes it: that starter takes the lock", async () => {
  const path = join(dataDir, "sandbox.lock");
  fs.writeFileSync(path, JSON.stringify({ pid: 4242, host: "slow-container", token: "slow" }));
  const old = new Date(Date.now() - LOCK_STALE_MS - 60_000);
  fs.utimesSync(path, old, old);
  before.rename = () => fs.rmSync(path);
  const lock = await lockDataDir({ dataDir, waitMs: 0, log: () => {} });
  expect(JSON.parse(fs.readFileSync(path, "utf8"))).toMatchObject({ pid: process.pid });
  lock.release();
});
