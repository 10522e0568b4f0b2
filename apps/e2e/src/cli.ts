import type { ChainFacts } from "@swapintent/testing/devApi";
import { type DemoOptions, parseDemoArgs, usage } from "./args.js";
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

const chainsJson = process.env.SWAPINTENT_CHAINS_JSON;
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
  chains: chainsJson ? (JSON.parse(chainsJson) as ChainFacts[]) : undefined,
  keys: walletKeysFromEnv(process.env),
});
process.exitCode = result.ok ? 0 : 1;
