import { startSandbox } from "../startSandbox.js";
import type { SandboxOptions } from "../types.js";
import { parseCliArgs, USAGE } from "./parseCliArgs.js";

/**
 * Run the sandbox from a command line: parse `argv`, start, print `Sandbox ready at <url>` on stdout, and
 * close cleanly on SIGINT or SIGTERM. `extra` options (for example injected legs) override the parsed ones.
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
  const sandbox = await startSandbox({ ...parsed.options, ...extra });
  process.stdout.write(
    `Sandbox ready at ${sandbox.url} (API ${sandbox.url}/affiliate/v1, ${Math.round(performance.now() - startedAt)} ms${parsed.options.dev ? ", dev endpoints on" : ""})\n`,
  );
  const shutdown = (signal: string) => {
    process.stderr.write(`sandbox: ${signal}, closing\n`);
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
}
