/**
 * `pnpm demo` as a partner runs it, through the root script: what happens when it is killed mid-flow (the demo and
 * every process it started must end with it), and when it cannot run (one line of problem and one of what to do,
 * never a bare stack, and a non-zero exit).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { processesMarked } from "@swapintent/testing/processesMarked";
import { afterEach, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const started: ChildProcess[] = [];
const folders: string[] = [];

afterEach(() => {
  for (const child of started.splice(0)) child.kill("SIGKILL");
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Run `pnpm demo <args>` from the repository root as a partner would, with a mark in the environment. */
function runPnpmDemo(args: string[], env: Record<string, string> = {}) {
  return spawnMarked("pnpm", ["run", "--silent", "demo", ...args], env);
}

/** Spawn `command` in the repository root with a mark in its environment (inherited by all it starts). */
function spawnMarked(command: string, args: string[], env: Record<string, string> = {}) {
  const mark = `SWAPINTENT_TEST_RUN=${randomUUID()}`;
  const [name, value] = mark.split("=") as [string, string];
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env, [name]: value },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  // "close": every process holding the pipes (the demo too, when it outlives pnpm) has exited.
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const waitFor = async (pattern: RegExp, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(output)) {
      if (Date.now() > deadline) throw new Error(`no ${pattern} after ${timeoutMs} ms; output:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return { child, mark, closed, exited, waitFor, output: () => output };
}

/** A local port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Wait until no process carries `mark`; resolves to the pids still alive after `timeoutMs`. */
async function leftAfter(mark: string, timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pids = processesMarked(mark);
    if (pids.length === 0 || Date.now() > deadline) return pids;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("pnpm demo killed mid-flow leaves nothing running", () => {
  it.each([
    ["SIGKILL", "the command that started it has exited"],
    ["SIGTERM", "interrupted by SIGTERM"],
  ] as const)(
    "%s to pnpm: the demo stops at once, closes the sandbox and no anvil is left",
    async (signal, why) => {
      const demo = runPnpmDemo([]);
      await demo.waitFor(/Sandbox ready at/, 120_000);
      expect(processesMarked(demo.mark).length).toBeGreaterThan(3); // pnpm, the demo, anvils and their watchdogs
      demo.child.kill(signal);
      await demo.closed;
      // The tour takes seconds more: a demo that ran on as an orphan would have printed its summary.
      expect(await leftAfter(demo.mark, 5_000)).toEqual([]);
      expect(demo.output()).toContain(`pnpm demo stopped: ${why}; closing the embedded sandbox`);
      expect(demo.output()).not.toMatch(/routes fulfilled/);
    },
  );
});

describe("pnpm demo whose output is closed (pnpm demo 2>&1 | head)", () => {
  it("stops quietly with 141 (stdout and stderr both closed), closes the sandbox, no anvil left", async () => {
    // bash for $PIPESTATUS (its first element): the demo's own exit status, not head's.
    const demo = spawnMarked("bash", [
      "-c",
      'set -o pipefail; pnpm run --silent demo 2>&1 | head -n 2; echo "demo exit $PIPESTATUS"',
    ]);
    await demo.closed;
    expect(demo.output()).toMatch(/^Starting the embedded sandbox.*\n.*\ndemo exit 141\n$/);
    expect(await leftAfter(demo.mark, 5_000)).toEqual([]);
  });
});

describe("pnpm demo that cannot run says what to do", () => {
  it("an unreachable --base-url: exit 1, the problem and the hint, no stack", async () => {
    const closed = await closedPort();
    const demo = runPnpmDemo([
      "--base-url",
      `http://127.0.0.1:${closed}`,
      "--from",
      "ethereum:USDC",
      "--to",
      "l2:USDC",
    ]);
    expect((await demo.exited).code).toBe(1);
    await demo.closed;
    expect(demo.output()).toMatch(/^pnpm demo failed: .*network error.*\(.*ECONNREFUSED.*\)$/m);
    expect(demo.output()).toContain(
      `  check that the service at --base-url http://127.0.0.1:${closed} is up`,
    );
    expect(demo.output()).not.toMatch(/^\s+at /m);
  });

  it("a malformed SWAPINTENT_CHAINS_JSON: exit 1 naming the variable, no stack", async () => {
    const demo = runPnpmDemo(["--base-url", `http://127.0.0.1:${await closedPort()}`], {
      SWAPINTENT_CHAINS_JSON: "{not json",
    });
    expect((await demo.exited).code).toBe(1);
    await demo.closed;
    expect(demo.output()).toMatch(/^pnpm demo failed: SWAPINTENT_CHAINS_JSON is not JSON/m);
    expect(demo.output()).not.toMatch(/^\s+at /m);
  });

  it("a compiler cache folder that cannot be written: exit 1 naming the folder and SWAPINTENT_CACHE_DIR, no stack, no anvil left", async () => {
    const folder = mkdtempSync(join(tmpdir(), "swapintent-demo-"));
    folders.push(folder);
    writeFileSync(join(folder, "a-file"), "");
    const cache = join(folder, "a-file", "cache"); // under a file: not creatable, even by root
    const demo = runPnpmDemo(["--from", "ethereum:USDC", "--to", "l2:USDC"], { SWAPINTENT_CACHE_DIR: cache });
    expect((await demo.exited).code).toBe(1);
    await demo.closed;
    expect(demo.output()).toContain(`pnpm demo failed: cannot write ${cache} (ENOTDIR)`);
    expect(demo.output()).toMatch(/set SWAPINTENT_CACHE_DIR to a writable folder/);
    expect(demo.output()).not.toMatch(/^\s+at /m);
    expect(await leftAfter(demo.mark, 5_000)).toEqual([]);
  });
});
