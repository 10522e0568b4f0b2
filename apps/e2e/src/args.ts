import { parseArgs } from "node:util";
import { createBaseClient } from "@swapintent/client";

/** Command-line options of the demo. */
export interface DemoOptions {
  /** `network:token` of the source, for example `ethereum:USDC`; unset runs the whole tour. */
  from: string | undefined;
  /** `network:token` of the destination. */
  to: string | undefined;
  /** Human-unit amount as a decimal string (never a float). */
  amount: string | undefined;
  /** Slippage in basis points. */
  slippageBps: number;
  /** Run against a real deployment instead of the embedded sandbox. */
  baseUrl: string | undefined;
  /** Allow a plain `http:` base URL to a host other than loopback (the API key crosses the network in clear text). */
  allowInsecureHttp: boolean;
  /** Print one JSON document on stdout instead of live text. */
  json: boolean;
  /** Stop before submitting the approval and print what would be signed. */
  dryRun: boolean;
  help: boolean;
}

/** Usage text of the demo. */
export const usage = `Usage: pnpm demo [options]

Without options: starts the sandbox in-process, funds fresh wallets through its faucet and runs the tour
(EVM -> Solana, Tron -> Bitcoin, Bitcoin -> EVM, Solana -> Tron, a route through an intermediate token, and
an EVM smart account (ERC-6492) -> Solana).

Options:
  --from <network:token>   source, e.g. ethereum:USDC, tron:USDT, bitcoin:BTC, solana:USDC (needs --to)
  --to <network:token>     destination
  --amount <decimal>       amount in human units, e.g. 25.5 (default per route)
  --slippage <bps>         slippage in basis points (default 50)
  --base-url <url>         run against a real deployment (API key from SWAPINTENT_API_KEY, wallet keys
                           from SWAPINTENT_EVM_PRIVATE_KEY, SWAPINTENT_TRON_PRIVATE_KEY, SWAPINTENT_BTC_WIF,
                           SWAPINTENT_SOLANA_SECRET_KEY); https, or plain http to loopback only
  --allow-insecure-http    allow a plain http --base-url to another host (a sandbox container in CI,
                           http://sandbox:8080): the API key then crosses the network in clear text
  --json                   print one machine-readable JSON document on stdout
  --dry-run                stop before submitting the approval; print what the user would sign
  -h, --help               this text

Environment:
  SWAPINTENT_API_KEY            API key for --base-url (default: any key the sandbox accepts)
  SWAPINTENT_EVM_PRIVATE_KEY    funded wallets' keys for a deployment without a faucet (the Solana one a
  SWAPINTENT_TRON_PRIVATE_KEY   JSON byte array); unset: fresh wallets funded by the sandbox faucet
  SWAPINTENT_BTC_WIF
  SWAPINTENT_SOLANA_SECRET_KEY
  SWAPINTENT_CHAINS_JSON        chain facts for a deployment without /sandbox/chains (that endpoint's JSON)
  SWAPINTENT_CACHE_DIR          where the compiled Permit2 contract is cached (default: the sandbox
                                package's node_modules/.cache/swapintent)

Run it from the repository root (from a subfolder: pnpm -w demo). pnpm demo -- --json works too.
Ctrl-C, SIGTERM, or the end of the command that started it stops the demo and its local chains.
`;

/** Parses the demo's command line; throws a readable `Error` on bad input. */
export function parseDemoArgs(argv: readonly string[]): DemoOptions {
  const { values } = parseArgs({
    // `pnpm demo -- --json` (the npm habit) passes the "--" on: the demo takes no positionals, so it only separates.
    args: argv[0] === "--" ? argv.slice(1) : [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      from: { type: "string" },
      to: { type: "string" },
      amount: { type: "string" },
      slippage: { type: "string" },
      "base-url": { type: "string" },
      "allow-insecure-http": { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      "dry-run": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if ((values.from === undefined) !== (values.to === undefined)) {
    throw new Error("--from and --to go together");
  }
  if (values.amount !== undefined && !/^(?:0|[1-9]\d*)(?:\.\d+)?$/.test(values.amount)) {
    throw new Error(`--amount must be a positive decimal number, got "${values.amount}"`);
  }
  if (values.amount !== undefined && /^0(?:\.0*)?$/.test(values.amount)) {
    throw new Error("--amount must be greater than zero");
  }
  let slippageBps = 50;
  if (values.slippage !== undefined) {
    if (!/^\d+$/.test(values.slippage) || Number(values.slippage) > 10_000) {
      throw new Error(`--slippage must be an integer from 0 to 10000, got "${values.slippage}"`);
    }
    slippageBps = Number(values.slippage);
  }
  if (values["base-url"] !== undefined) {
    checkBaseUrl(values["base-url"]);
    assertBaseUrlAllowed(values["base-url"], values["allow-insecure-http"] ?? false);
  }
  return {
    from: values.from,
    to: values.to,
    amount: values.amount,
    slippageBps,
    baseUrl: values["base-url"],
    allowInsecureHttp: values["allow-insecure-http"] ?? false,
    json: values.json ?? false,
    dryRun: values["dry-run"] ?? false,
    help: values.help ?? false,
  };
}

/** The client's own rule for `baseUrl` (plain http only to loopback), said in the CLI's terms. */
function assertBaseUrlAllowed(baseUrl: string, allowInsecureHttp: boolean): void {
  try {
    createBaseClient({ baseUrl, auth: "none", allowInsecureHttp });
  } catch {
    throw new Error(
      `--base-url must be https, or plain http only to loopback (localhost, 127.0.0.0/8, [::1]): the API key would cross the network in clear text. Add --allow-insecure-http to allow it (for example a sandbox container in CI).`,
    );
  }
}

/** Throws unless `url` is the http(s) root of a service. */
function checkBaseUrl(url: string): void {
  // "localhost:8787" parses as a URL with the scheme "localhost:": only http and https reach a service.
  let protocol = "";
  try {
    protocol = new URL(url).protocol;
  } catch {}
  if (protocol !== "http:" && protocol !== "https:") {
    throw new Error(`--base-url is not an http(s) URL: "${url}" (e.g. http://127.0.0.1:8787)`);
  }
  // The sandbox prints "API <url>/affiliate/v1"; the client adds that path itself (it asked /affiliate/v1/affiliate/v1).
  const api = /\/affiliate\/v1\/?$/.exec(url);
  if (api)
    throw new Error(
      `--base-url is the service's root, without /affiliate/v1: use ${url.slice(0, api.index)}`,
    );
}
