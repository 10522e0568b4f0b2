import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** A running anvil process. */
export interface AnvilProcess {
  /** `http://127.0.0.1:PORT`. */
  rpcUrl: string;
  /** The anvil process id (for tests that kill it hard). */
  pid: number;
  /** Milliseconds from spawn to "Listening". */
  startMs: number;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  /** Whether the anvil process still exists. */
  isAlive(): boolean;
  /** Stop anvil (the watchdog SIGKILLs it) and wait until the watchdog has exited. */
  stop(): Promise<void>;
}

/** Watchdog shells and the anvil pid each one guards (0 until known). */
const running = new Map<ChildProcess, number>();
let exitHookInstalled = false;

/** Path of the anvil binary from the optional platform package of npm `@foundry-rs/anvil` (the postinstall is not relied on). */
export function getAnvilBinaryPath(): string {
  const fromSandbox = createRequire(import.meta.url);
  const anvilManifest = fromSandbox.resolve("@foundry-rs/anvil/package.json");
  const fromAnvil = createRequire(anvilManifest);
  const platform = `@foundry-rs/anvil-${process.platform === "win32" ? "win32" : process.platform}-${process.arch === "x64" ? "amd64" : process.arch}`;
  const manifest = fromAnvil.resolve(`${platform}/package.json`);
  return join(dirname(manifest), "bin", process.platform === "win32" ? "anvil.exe" : "anvil");
}

/**
 * Spawn anvil on 127.0.0.1 with `--port 0` and wait for its "Listening on 127.0.0.1:PORT" line.
 * A small shell watchdog holds a pipe to this process: when this process dies (even by SIGKILL) the pipe
 * closes and the watchdog kills anvil, so no anvil outlives its owner. A normal exit kills it too.
 *
 * The watchdog and anvil run in their own session and process group (`detached`), so a signal sent to this
 * process's group (Ctrl-C in a terminal, `kill %1` of a shell job) reaches only this process: the sandbox then
 * saves the engine's state and stops anvil itself, instead of losing the state with an engine killed under it.
 */
export async function startAnvil(options: { args: string[]; timeoutMs?: number }): Promise<AnvilProcess> {
  installExitHook();
  const binary = getAnvilBinaryPath();
  const started = performance.now();
  // $0 = anvil binary, $@ = its arguments. Prints anvil's pid, then waits for stdin EOF and kills anvil.
  const script =
    '"$0" "$@" & child=$!; echo "anvil-pid:$child"; read _ignored; kill -9 "$child" 2>/dev/null; wait "$child" 2>/dev/null; exit 0';
  const watchdog = spawn(
    "sh",
    ["-c", script, binary, "--host", "127.0.0.1", "--port", "0", ...options.args],
    {
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    },
  );
  running.set(watchdog, 0);
  const exited = new Promise<void>((resolve) => {
    watchdog.once("exit", () => {
      running.delete(watchdog);
      resolve();
    });
  });

  const ready = waitForListening({ watchdog, exited, timeoutMs: options.timeoutMs ?? 20_000 });
  let port: number;
  let pid: number;
  try {
    ({ port, pid } = await ready);
    running.set(watchdog, pid);
  } catch (error) {
    watchdog.stdin?.end(); // the watchdog kills anvil, if it started, and exits
    throw error;
  }
  // Keep draining anvil's output so it never blocks on a full pipe.
  watchdog.stdout?.resume();
  watchdog.stderr?.resume();

  const stop = async () => {
    if (watchdog.exitCode !== null || watchdog.signalCode !== null) return;
    // Closing the pipe makes the watchdog kill anvil and exit. (Legs persist their state before stopping.)
    watchdog.stdin?.end();
    await exited;
  };
  const isAlive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  return {
    rpcUrl: `http://127.0.0.1:${port}`,
    pid,
    startMs: performance.now() - started,
    exited,
    isAlive,
    stop,
  };
}

/**
 * Read the watchdog's output until it has printed anvil's pid and anvil its "Listening on 127.0.0.1:PORT" line.
 * Rejects, with the output's tail, when the time runs out or the watchdog exits first.
 */
function waitForListening({
  watchdog,
  exited,
  timeoutMs,
}: {
  watchdog: ChildProcess;
  exited: Promise<void>;
  timeoutMs: number;
}): Promise<{ port: number; pid: number }> {
  let output = "";
  return new Promise<{ port: number; pid: number }>((resolve, reject) => {
    let pid: number | undefined;
    const timer = setTimeout(
      () => reject(new Error(`anvil did not start in time; output:\n${output.slice(-2000)}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const pidMatch = /anvil-pid:(\d+)/.exec(output);
      if (pidMatch) pid = Number(pidMatch[1]);
      const listen = /Listening on 127\.0\.0\.1:(\d+)/.exec(output);
      if (listen && pid !== undefined) {
        clearTimeout(timer);
        watchdog.stdout?.off("data", onData);
        watchdog.stderr?.off("data", onData);
        resolve({ port: Number(listen[1]), pid });
      }
    };
    watchdog.stdout?.on("data", onData);
    watchdog.stderr?.on("data", onData);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`anvil exited before listening; output:\n${output.slice(-2000)}`));
    });
  });
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const [child, pid] of running) {
      if (pid > 0) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
      child.stdin?.destroy();
    }
  });
}
