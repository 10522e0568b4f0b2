import { readFileSync } from "node:fs";
import { resolve } from "node:path";
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

/** Read `--database-url`, `--no-wait`, `--lock-timeout` or `--database-timeout` into `options`; false when `flag` is none of them. */
function readDatabaseFlag({
  flag,
  options,
  value,
  integer,
}: {
  flag: string;
  options: SandboxOptions;
  value: () => string;
  integer: (min: number) => number;
}): boolean {
  switch (flag) {
    case "--database-url":
      options.databaseUrl = value();
      return true;
    case "--no-wait":
      options.waitForDatabaseLock = false;
      return true;
    case "--database-timeout":
      options.databaseStartTimeoutSecs = integer(1);
      return true;
    case "--lock-timeout":
      options.databaseLockTimeoutSecs = integer(1);
      return true;
    default:
      return false;
  }
}

/** Parsed command line: sandbox options, or a request for help. */
export type CliArgs = { help: true } | { help: false; options: SandboxOptions };

/**
 * Parse `pnpm sandbox` arguments. Throws an `Error` naming the bad argument. Relative paths are resolved against
 * `cwd`: by default the folder `pnpm sandbox` was run from (`INIT_CWD`), not the package folder pnpm runs scripts in.
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
  const options: SandboxOptions = { port: 8787 };
  if (env.SANDBOX_DATABASE_URL) options.databaseUrl = env.SANDBOX_DATABASE_URL;
  let rateLimit: number | undefined;
  let rateWindow = 1;
  // `pnpm sandbox -- --port 0` (the npm habit) passes the "--" on: the sandbox takes no positionals, so it only separates.
  for (let i = argv[0] === "--" ? 1 : 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=")
        ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
        : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === "") throw new Error(`${flag} needs a value`);
      return v;
    };
    const integer = (min: number) => {
      const v = value();
      if (!/^\d+$/.test(v) || Number(v) < min) throw new Error(`${flag} must be an integer >= ${min}`);
      return Number(v);
    };
    if (readDatabaseFlag({ flag, options, value, integer })) continue;
    switch (flag) {
      case "--help":
      case "-h":
        return { help: true };
      case "--port":
        options.port = integer(0);
        break;
      case "--data-dir":
        options.dataDir = resolve(cwd, value());
        break;
      case "--api-key":
        options.apiKeys = [...(options.apiKeys ?? []), value()];
        break;
      case "--public-key":
        options.publicKeys = [...(options.publicKeys ?? []), readFileSync(resolve(cwd, value()), "utf8")];
        break;
      case "--key-id": {
        const keys = options.publicKeys ?? [];
        const last = keys.at(-1);
        if (typeof last !== "string") throw new Error("--key-id must follow a --public-key");
        keys[keys.length - 1] = { pem: last, keyId: value() };
        break;
      }
      case "--quote-ttl":
        options.quoteTtlSecs = integer(1);
        break;
      case "--intent-ttl":
        options.intentTtlSecs = integer(1);
        break;
      case "--resolver-interval":
        options.resolverIntervalMs = integer(1);
        break;
      case "--rate-limit":
        rateLimit = integer(1);
        break;
      case "--rate-window":
        rateWindow = integer(1);
        break;
      case "--dev":
        options.dev = true;
        break;
      default:
        // The flag only: a mistyped `--database-urll=postgres://user:password@…` must not print the password.
        throw new Error(`unknown argument ${flag}`);
    }
  }
  if (rateLimit !== undefined) options.rateLimit = { requests: rateLimit, windowSecs: rateWindow };
  return { help: false, options };
}
