import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
// tsx's loader, registered in this one process (the tsx CLI would put the sandbox in a grandchild that a
// SIGKILL of the CLI does not reach).
const tsxLoader = pathToFileURL(require.resolve("tsx")).href;
const entry = fileURLToPath(new URL("./sandboxEntry.ts", import.meta.url));

/** A sandbox running in a child process (test legs injected). */
export interface SpawnedSandbox {
  url: string;
  child: ChildProcess;
  /** Everything the child wrote to stderr (its log). */
  stderr(): string;
  /** SIGKILL the child and wait for it to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Spawn `sandboxEntry.ts` (one node process, TypeScript through tsx's loader) and resolve once it prints its URL. */
export function spawnSandbox({
  args,
  env = {},
}: {
  args: string[];
  env?: Record<string, string>;
}): Promise<SpawnedSandbox> {
  const child = spawn(
    process.execPath,
    ["--conditions=swapintent-source", "--import", tsxLoader, entry, ...args],
    {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  let err = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const kill = async (signal: NodeJS.Signals = "SIGKILL") => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
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
