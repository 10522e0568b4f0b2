import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type ParseArgsConfig, parseArgs } from "node:util";
import type { SandboxOptions } from "../types.js";

/** Usage text of `pnpm sandbox`. */
export const USAGE = `Usage: pnpm sandbox [options]

  --port <n>                 TCP port on 127.0.0.1 (default 8787; 0 picks a free one)
  --data-dir <dir>           keep the database and engine state in <dir> (default: in memory)
  --database-url <url>       keep the service's state in a PostgreSQL server instead of PGlite:
                             postgres://user:password@host:port/database (or set SANDBOX_DATABASE_URL,
                             which keeps the password out of the process list); engine state stays
                             in --data-dir. One sandbox resolves per database: a second one waits
  --no-wait                  refuse to start while another sandbox holds the database (--database-url)
                             or runs on the data dir (PGlite), instead of waiting for it
  --lock-timeout <secs>      wait at most this long for another sandbox's lock (database or data dir),
                             then fail with SANDBOX_DATABASE_LOCKED (default 600)
  --database-timeout <secs>  with --database-url: retry an unreachable server this long at start
                             (default 60)
  --api-key <key>            accept only this X-Api-Key (repeatable; default: any key)
  --public-key <file>        require requests signed with this RSA public key, PEM (repeatable)
  --key-id <id>              the key id issued for the preceding --public-key (default: base64
                             SHA-256 of its PKCS#1 DER; the SPKI-DER hash is accepted too)
  --quote-ttl <secs>         quote lifetime (default 30)
  --intent-ttl <secs>        intent deadline from creation (default 1800)
  --resolver-interval <ms>   resolver pass interval (default 250)
  --rate-limit <n>           at most n requests per --rate-window, per client address while any key
                             is accepted, per partner with --api-key or --public-key (default: no limit)
  --rate-window <secs>       rate-limit window (default 1)
  --dev                      enable /sandbox/* (faucet, chains, clock, faults, balance)
  --help                     this text
`;

/** Every option of {@link USAGE}, as `node:util` `parseArgs` reads them (values are checked here, in order). */
const OPTIONS = {
  port: { type: "string" },
  "data-dir": { type: "string" },
  "database-url": { type: "string" },
  "no-wait": { type: "boolean" },
  "lock-timeout": { type: "string" },
  "database-timeout": { type: "string" },
  "api-key": { type: "string", multiple: true },
  "public-key": { type: "string", multiple: true },
  "key-id": { type: "string", multiple: true },
  "quote-ttl": { type: "string" },
  "intent-ttl": { type: "string" },
  "resolver-interval": { type: "string" },
  "rate-limit": { type: "string" },
  "rate-window": { type: "string" },
  dev: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies ParseArgsConfig["options"];

type OptionName = keyof typeof OPTIONS;

/** What one option's value does to the options being built. */
interface OptionContext {
  options: SandboxOptions;
  cwd: string;
  /** The value, or `<flag> needs a value`. */
  value(): string;
  /** The value as an integer >= `min`, or `<flag> must be an integer >= <min>`. */
  integer(min: number): number;
  rate: { limit?: number; windowSecs: number };
}

/** Each option's effect (`help` is handled before). */
const APPLY: Record<Exclude<OptionName, "help">, (c: OptionContext) => void> = {
  port: (c) => {
    c.options.port = c.integer(0);
  },
  "data-dir": (c) => {
    c.options.dataDir = resolve(c.cwd, c.value());
  },
  "database-url": (c) => {
    c.options.databaseUrl = c.value();
  },
  "no-wait": (c) => {
    c.options.waitForDatabaseLock = false;
  },
  "lock-timeout": (c) => {
    c.options.databaseLockTimeoutSecs = c.integer(1);
  },
  "database-timeout": (c) => {
    c.options.databaseStartTimeoutSecs = c.integer(1);
  },
  "api-key": (c) => {
    c.options.apiKeys = [...(c.options.apiKeys ?? []), c.value()];
  },
  "public-key": (c) => {
    c.options.publicKeys = [...(c.options.publicKeys ?? []), readFileSync(resolve(c.cwd, c.value()), "utf8")];
  },
  "key-id": (c) => {
    const keys = c.options.publicKeys ?? [];
    const last = keys.at(-1);
    if (typeof last !== "string") throw new Error("--key-id must follow a --public-key");
    keys[keys.length - 1] = { pem: last, keyId: c.value() };
  },
  "quote-ttl": (c) => {
    c.options.quoteTtlSecs = c.integer(1);
  },
  "intent-ttl": (c) => {
    c.options.intentTtlSecs = c.integer(1);
  },
  "resolver-interval": (c) => {
    c.options.resolverIntervalMs = c.integer(1);
  },
  "rate-limit": (c) => {
    c.rate.limit = c.integer(1);
  },
  "rate-window": (c) => {
    c.rate.windowSecs = c.integer(1);
  },
  dev: (c) => {
    c.options.dev = true;
  },
};

/** Parsed command line: sandbox options, or a request for help. */
export type CliArgs = { help: true } | { help: false; options: SandboxOptions };

/**
 * Parse `pnpm sandbox` arguments with `node:util` `parseArgs`, applying the options in the order given (a
 * `--key-id` names the `--public-key` before it). Throws an `Error` naming the bad argument (an unknown flag by its
 * name only: a mistyped `--database-urll=postgres://user:password@…` must not print the password). Relative paths are
 * resolved against `cwd`: by default the folder `pnpm sandbox` was run from (`INIT_CWD`), not the package folder pnpm
 * runs scripts in.
 *
 * @example parseCliArgs({ argv: ["--port", "0", "--dev"] }) // { help: false, options: { port: 0, dev: true } }
 */
export function parseCliArgs({
  argv,
  cwd = process.env.INIT_CWD ?? process.cwd(),
  env = process.env,
}: {
  argv: readonly string[];
  cwd?: string;
  /** Environment: `SANDBOX_DATABASE_URL` is the default of `--database-url`. */
  env?: Readonly<Record<string, string | undefined>>;
}): CliArgs {
  // `pnpm sandbox -- --port 0` (the npm habit) passes the "--" on: the sandbox takes no positionals, so it only separates.
  const args = argv[0] === "--" ? argv.slice(1) : [...argv];
  const { tokens } = parseArgs({
    args,
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const options: SandboxOptions = { port: 8787 };
  if (env.SANDBOX_DATABASE_URL) options.databaseUrl = env.SANDBOX_DATABASE_URL;
  const rate: OptionContext["rate"] = { windowSecs: 1 };
  for (const token of tokens) {
    if (token.kind === "positional") throw new Error(`unknown argument ${token.value}`);
    if (token.kind === "option-terminator") throw new Error("unknown argument --");
    if (!Object.hasOwn(OPTIONS, token.name)) throw new Error(`unknown argument ${token.rawName}`);
    const name = token.name as OptionName;
    if (name === "help") return { help: true };
    const flag = `--${name}`;
    const value = () => {
      if (token.value === undefined || token.value === "") throw new Error(`${flag} needs a value`);
      return token.value;
    };
    const integer = (min: number) => {
      const v = value();
      if (!/^\d+$/.test(v) || Number(v) < min) throw new Error(`${flag} must be an integer >= ${min}`);
      return Number(v);
    };
    APPLY[name]({ options, cwd, value, integer, rate });
  }
  if (rate.limit !== undefined) options.rateLimit = { requests: rate.limit, windowSecs: rate.windowSecs };
  return { help: false, options };
}
