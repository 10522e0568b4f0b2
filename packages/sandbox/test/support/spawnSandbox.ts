import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
// tsx's loader, registered in this one process (the tsx CLI would put the sandbox in a grandchild that a
// SIGKILL of the CLI does not reach).
const tsxLoader = pathToFileURL(require.resolve("tsx")).href;
const testEntry = fileURLToPath(new URL("./sandboxEntry.ts", import.meta.url));
const cliEntry = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));

/** A sandbox running in a child process (test legs injected). */
export interface SpawnedSandbox {
  url: string;
  child: ChildProcess;
  /** Everything the child wrote to stderr (its log). */
  stderr(): string;
  /** SIGKILL the child (or send `signal`; to its whole process group with `group`) and wait for it to exit. */
  kill(signal?: NodeJS.Signals, options?: { group?: boolean }): Promise<void>;
}

/**
 * Spawn `sandboxEntry.ts` (test legs), or with `realLegs` the sandbox's own CLI (real engines), as one node process
 * (TypeScript through tsx's loader), and resolve once it prints its URL. `detached` gives it its own process group,
 * as a shell job or a terminal's foreground command has, so a test can signal the whole group.
 */
export function spawnSandbox({
  args,
  env = {},
  realLegs = false,
  detached = false,
}: {
  args: string[];
  env?: Record<string, string>;
  realLegs?: boolean;
  detached?: boolean;
}): Promise<SpawnedSandbox> {
  const child = spawn(
    process.execPath,
    ["--conditions=swapintent-source", "--import", tsxLoader, realLegs ? cliEntry : testEntry, ...args],
    {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached,
    },
  );
  let out = "";
  let err = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const kill = async (signal: NodeJS.Signals = "SIGKILL", options: { group?: boolean } = {}) => {
    if (child.exitCode === null && child.signalCode === null) {
      if (options.group && child.pid !== undefined) process.kill(-child.pid, signal);
      else child.kill(signal);
    }
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void kill();
      reject(new Error(`sandbox did not start in time\n${err}`));
    }, 60_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Sandbox ready at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, child, stderr: () => err, kill });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${code} before it was ready\n${err}`));
    });
  });
}
