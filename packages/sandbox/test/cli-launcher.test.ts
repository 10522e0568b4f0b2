/**
 * `pnpm sandbox` as a partner or a CI step runs it, through the root script: killing the launcher (pnpm) must not
 * leave the sandbox serving, holding its port, and its anvils running; a port in use says what to do.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { processesMarked } from "@swapintent/testing/processesMarked";
import { afterEach, expect, test } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const started: ChildProcess[] = [];
/** The environment marks of this file's runs: whatever still carries one after a test (a test that timed out) is killed. */
const marks: string[] = [];

afterEach(() => {
  for (const child of started.splice(0)) child.kill("SIGKILL");
  for (const mark of marks.splice(0)) {
    for (const pid of processesMarked(mark)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // ended meanwhile
      }
    }
  }
});

/**
 * Each test waits for `pnpm sandbox` to start (pnpm, tsx, the anvils): 6 to 13 s on a quiet 2-core machine, more
 * when the run's other files compile or install beside it. As long as {@link runPnpmSandbox}'s own wait for a line.
 */
const SANDBOX_TEST_TIMEOUT_MS = 120_000;

function runPnpmSandbox(args: string[]) {
  const id = randomUUID();
  const child = spawn("pnpm", ["run", "--silent", "sandbox", ...args], {
    cwd: root,
    env: { ...process.env, SWAPINTENT_TEST_RUN: id },
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  marks.push(`SWAPINTENT_TEST_RUN=${id}`);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const waitFor = async (pattern: RegExp) => {
    for (const deadline = Date.now() + 120_000; !pattern.test(output); ) {
      if (Date.now() > deadline) throw new Error(`no ${pattern}; output:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return { child, mark: `SWAPINTENT_TEST_RUN=${id}`, closed, waitFor, output: () => output };
}

test.each(["SIGKILL", "SIGTERM"] as const)(
  "%s to `pnpm sandbox`: the sandbox closes and exits, and no anvil or watchdog is left",
  { timeout: SANDBOX_TEST_TIMEOUT_MS },
  async (signal) => {
    const sandbox = runPnpmSandbox(["--port", "0", "--dev"]);
    await sandbox.waitFor(/client baseUrl: /);
    // The line a client copies names the root it passes as `baseUrl`, the URL the sandbox serves on.
    const printed = /Sandbox ready at (\S+) [^\n]*\n {2}client baseUrl: (\S+) /.exec(sandbox.output());
    expect(printed?.[2]).toBe(printed?.[1]);
    expect(printed?.[2]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(processesMarked(sandbox.mark).length).toBeGreaterThan(3);
    sandbox.child.kill(signal);
    await sandbox.closed; // every process holding the output pipes has exited: before, the sandbox served on
    const deadline = Date.now() + 5_000;
    while (processesMarked(sandbox.mark).length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(processesMarked(sandbox.mark)).toEqual([]);
    expect(sandbox.output()).toContain(
      signal === "SIGKILL"
        ? "sandbox: the command that started it has exited, closing"
        : "sandbox: interrupted by SIGTERM, closing",
    );
  },
);

test("a port in use: exit 1 and one line naming the port and what to do, no stack", {
  timeout: SANDBOX_TEST_TIMEOUT_MS,
}, async () => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  const { port } = holder.address() as AddressInfo;
  try {
    const sandbox = runPnpmSandbox(["--port", String(port)]);
    const code = await new Promise<number | null>((resolve) => sandbox.child.once("exit", resolve));
    await sandbox.closed;
    expect(code).toBe(1);
    expect(sandbox.output()).toContain(
      `sandbox failed to start: port ${port} on 127.0.0.1 is already in use (another sandbox?): stop that process, or pass another --port (--port 0 picks a free one)`,
    );
    expect(sandbox.output()).not.toMatch(/^\s+at /m);
  } finally {
    await new Promise((resolve) => holder.close(resolve));
  }
});

test("a --data-dir that cannot be created: exit 1 and one line naming it and what to do, no stack", {
  timeout: SANDBOX_TEST_TIMEOUT_MS,
}, async () => {
  const folder = mkdtempSync(join(tmpdir(), "swapintent-cli-"));
  try {
    writeFileSync(join(folder, "a-file"), "");
    const dataDir = join(folder, "a-file", "data"); // under a file: not creatable, even by root
    const sandbox = runPnpmSandbox(["--port", "0", "--data-dir", dataDir]);
    const code = await new Promise<number | null>((resolve) => sandbox.child.once("exit", resolve));
    await sandbox.closed;
    expect(code).toBe(1);
    expect(sandbox.output()).toMatch(
      new RegExp(
        `^sandbox failed to start: cannot write ${dataDir}\\S* \\(ENOTDIR\\): pass a --data-dir you can write`,
        "m",
      ),
    );
    expect(sandbox.output()).not.toMatch(/^\s+at /m);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test("started directly and left running by a shell that exits (a CI step's `node cli.js &`), it serves on until SIGTERM", {
  timeout: SANDBOX_TEST_TIMEOUT_MS,
}, async () => {
  const id = randomUUID();
  marks.push(`SWAPINTENT_TEST_RUN=${id}`);
  const folder = mkdtempSync(join(tmpdir(), "swapintent-cli-"));
  const log = join(folder, "sandbox.log");
  // no package manager's script around it: the test runner's own npm_* variables are not passed on
  const env = Object.fromEntries(
    Object.entries({ ...process.env, SWAPINTENT_TEST_RUN: id }).filter(([name]) => !name.startsWith("npm_")),
  );
  const shell = spawn(
    "sh",
    [
      "-c",
      // the shell stays until the sandbox is up (so it was the sandbox's launcher), then exits
      `node --import tsx --conditions=swapintent-source packages/sandbox/src/cli.ts --port 0 > "${log}" 2>&1 & echo $!; until grep -q "Sandbox ready" "${log}"; do sleep 0.1; done`,
    ],
    { cwd: root, env, stdio: ["ignore", "pipe", "inherit"] },
  );
  let pid = "";
  shell.stdout!.on("data", (chunk) => (pid += chunk));
  await new Promise((resolve) => shell.once("close", resolve)); // the shell is gone: the sandbox is re-parented
  const sandboxPid = Number(pid.trim());
  try {
    let url: string | undefined;
    for (const deadline = Date.now() + 120_000; url === undefined; ) {
      if (Date.now() > deadline) throw new Error(`not ready:\n${readFileSync(log, "utf8")}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      url = /Sandbox ready at (\S+) /.exec(readFileSync(log, "utf8"))?.[1];
    }
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // six launcher checks at 250 ms
    // it answers (a coded refusal of the made-up key is an answer too): before, it had closed itself
    const response = await fetch(`${url}/affiliate/v1/networks`, { headers: { "x-api-key": "any" } });
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(processesMarked(`SWAPINTENT_TEST_RUN=${id}`)).toContain(sandboxPid);
    process.kill(sandboxPid, "SIGTERM");
    const deadline = Date.now() + 10_000;
    while (processesMarked(`SWAPINTENT_TEST_RUN=${id}`).length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(processesMarked(`SWAPINTENT_TEST_RUN=${id}`)).toEqual([]);
    expect(readFileSync(log, "utf8")).toContain("sandbox: interrupted by SIGTERM, closing");
  } finally {
    for (const leftover of processesMarked(`SWAPINTENT_TEST_RUN=${id}`)) process.kill(leftover, "SIGKILL");
    rmSync(folder, { recursive: true, force: true });
  }
});
