import type { ChainFacts } from "@swapintent/testing/devApi";
import { watchProcessEnd } from "@swapintent/testing/watchProcessEnd";
import { type DemoOptions, parseDemoArgs, usage } from "./args.js";
import { describeFailure } from "./describeFailure.js";
import { runDemo } from "./runDemo.js";
import { walletKeysFromEnv } from "./wallets/index.js";

let options: DemoOptions;
try {
  options = parseDemoArgs(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${usage}`);
  process.exit(2);
}
if (options.help) {
  process.stdout.write(usage);
  process.exit(0);
}

/** Print what went wrong and what to do, in two lines (no stack), and end with `exitCode`. */
function fail(problem: string, hint: string, exitCode = 1): never {
  process.stderr.write(`pnpm demo failed: ${problem}\n  ${hint}\n`);
  process.exit(exitCode);
}

let chains: ChainFacts[] | undefined;
if (process.env.SWAPINTENT_CHAINS_JSON) {
  try {
    chains = JSON.parse(process.env.SWAPINTENT_CHAINS_JSON) as ChainFacts[];
  } catch (error) {
    fail(
      `SWAPINTENT_CHAINS_JSON is not JSON (${(error as Error).message})`,
      "set it to the JSON array GET /sandbox/chains returns, or unset it",
    );
  }
}

// Interrupted (Ctrl-C, kill, a CI timeout), orphaned (pnpm killed) or read no more (`pnpm demo | head`): close the
// embedded sandbox, which stops its anvils, then exit, instead of running on with nobody watching or a stack.
let closeSandbox: (() => Promise<void>) | undefined;
let stopping = false;
function stop({ exitCode, message }: { exitCode: number; message: string }): void {
  if (stopping) return;
  stopping = true;
  process.stderr.write(`pnpm demo stopped: ${message}${closeSandbox ? "; closing the embedded sandbox" : ""}
`);
  const exit = () => process.exit(exitCode);
  setTimeout(exit, 5_000).unref();
  void (closeSandbox?.() ?? Promise.resolve()).then(exit, exit);
}
watchProcessEnd({ onEnd: stop });
// `pnpm demo 2>&1 | head`: stderr is the closed pipe too, and there is nowhere left to report to.
process.stderr.on("error", () => {});
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  // 141: what a shell reports for a command ended by SIGPIPE, as `yes | head` is.
  if (error.code === "EPIPE") stop({ exitCode: 141, message: "its output was closed (EPIPE)" });
  else stop({ exitCode: 1, message: `cannot write its output (${error.code ?? error.message})` });
});

try {
  const result = await runDemo({
    baseUrl: options.baseUrl,
    allowInsecureHttp: options.allowInsecureHttp,
    apiKey: process.env.SWAPINTENT_API_KEY || undefined,
    routes:
      options.from && options.to
        ? [
            {
              name: `${options.from} -> ${options.to}`,
              from: options.from,
              to: options.to,
              amount: options.amount ?? "10",
            },
          ]
        : undefined,
    slippageBps: options.slippageBps,
    dryRun: options.dryRun,
    json: options.json,
    chains,
    keys: walletKeysFromEnv(process.env),
    onSandboxStarted: (sandbox) => {
      closeSandbox = sandbox.close;
    },
  });
  process.exitCode = result.ok ? 0 : 1;
} catch (error) {
  const { problem, hint } = describeFailure({ error, baseUrl: options.baseUrl });
  fail(problem, hint);
}
