import { watchProcessEnd } from "@swapintent/testing/watchProcessEnd";
import { startSandbox } from "../startSandbox.js";
import type { Sandbox, SandboxOptions } from "../types.js";
import { parseCliArgs, USAGE } from "./parseCliArgs.js";

/**
 * Run the sandbox from a command line: parse `argv`, start, print `Sandbox ready at <url>` on stdout, and close
 * cleanly on SIGINT, SIGTERM or SIGHUP, or when the process that launched it (`pnpm sandbox`, a CI step) dies
 * without passing a signal on. `extra` options (for example injected legs) override the parsed ones. A start that
 * fails prints one line of what went wrong and what to do, and sets exit code 1.
 */
export async function runCli({
  argv,
  extra = {},
}: {
  argv: readonly string[];
  extra?: SandboxOptions;
}): Promise<void> {
  let parsed: ReturnType<typeof parseCliArgs>;
  try {
    parsed = parseCliArgs({ argv });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (parsed.help) {
    process.stdout.write(USAGE);
    return;
  }
  const startedAt = performance.now();
  let sandbox: Sandbox | undefined;
  // Watching from before the start: an interrupted start exits (the 'exit' hook stops any anvil already spawned).
  watchProcessEnd({
    // Started by a package manager's script (`pnpm sandbox`), it ends with that launcher: a killed pnpm must not
    // leave it serving. Started directly (`node …/cli.js &`, `swapintent-sandbox &` from a CI step, a service
    // manager) it is a server left running on purpose, and outlives the shell that started it.
    watchLauncher: process.env.npm_lifecycle_event !== undefined,
    onEnd: ({ reason, message }) => {
      process.stderr.write(`sandbox: ${message}, closing\n`);
      // A signal is the way to stop a server: a clean close exits 0.
      const code = reason === "launcher-exited" ? 1 : 0;
      void (sandbox?.close() ?? Promise.resolve()).then(
        () => process.exit(code),
        () => process.exit(1),
      );
    },
  });
  try {
    sandbox = await startSandbox({ ...parsed.options, ...extra });
  } catch (error) {
    process.stderr.write(`sandbox failed to start: ${describeStartFailure(error, parsed.options.port)}\n`);
    process.exit(1);
  }
  process.stdout.write(
    `Sandbox ready at ${sandbox.url} (${Math.round(performance.now() - startedAt)} ms${parsed.options.dev ? ", dev endpoints on" : ""})\n` +
      `  client baseUrl: ${sandbox.url}   (the root: the client adds /affiliate/v1 itself)\n`,
  );
}

const FILE_SYSTEM_CODES = new Set(["EACCES", "EPERM", "EROFS", "ENOSPC", "EDQUOT", "ENOTDIR", "EEXIST"]);

/** The error's message, and for a port in use or a folder it cannot write, what to do about it. */
function describeStartFailure(error: unknown, port: number | undefined): string {
  const message = error instanceof Error ? error.message : String(error);
  const { code, path } = (error ?? {}) as { code?: unknown; path?: unknown };
  if (code === "EADDRINUSE") {
    return `port ${port} on 127.0.0.1 is already in use (another sandbox?): stop that process, or pass another --port (--port 0 picks a free one)`;
  }
  if (typeof code === "string" && FILE_SYSTEM_CODES.has(code) && typeof path === "string") {
    const fix =
      code === "ENOSPC" || code === "EDQUOT"
        ? "free some disk space"
        : "pass a --data-dir you can write (or none: state in memory); SWAPINTENT_CACHE_DIR moves the compiler cache";
    return `cannot write ${path} (${code}): ${fix}`;
  }
  return message;
}
