import type { PriceTable } from "./config/prices.js";
import type { PublicKeyConfig } from "./http/importSigningKey.js";
import type { ChainLeg, Clock, Json, LegFactories, LegFactory, NetworkConfig } from "./legs/types.js";

export type { LegFactories, LegFactory };

/** Dev fault switches (`POST /sandbox/faults`). */
export interface Faults {
  /** The resolver fails every delivery: deposited intents go to RefundRquested, then Refunded. */
  fail_delivery: boolean;
  /** The resolver declines every approved intent. */
  decline_all: boolean;
}

/**
 * Rate limit, fixed window: at most `requests` per `windowSecs`, counted per client address while any key is
 * accepted (keys cost nothing then), per partner when `apiKeys` or `publicKeys` restrict who may call.
 */
export interface RateLimit {
  requests: number;
  windowSecs: number;
}

/** Options of {@link startSandbox}. */
export interface SandboxOptions {
  /** TCP port on 127.0.0.1; 0 picks a free one. Default 0. */
  port?: number;
  /**
   * Folder for the engines' state (anvil dumps, ledgers, litesvm snapshots) and, without `databaseUrl`, the PGlite
   * database (`<dataDir>/db`); in memory when absent.
   */
  dataDir?: string;
  /**
   * A PostgreSQL server to keep the service's state in instead of PGlite: `postgres://user:password@host:port/db`.
   * Engine state stays in `dataDir`. One sandbox at a time resolves on a database (an advisory lock); the password
   * is never logged.
   */
  databaseUrl?: string;
  /**
   * When another sandbox holds the database's lock (`databaseUrl`) or runs on the PGlite data dir (`dataDir`,
   * `<dataDir>/sandbox.lock`): wait until it is released (default, logged at once and then once a minute, for at
   * most `databaseLockTimeoutSecs`) or, when false, fail at once with `SANDBOX_DATABASE_LOCKED`.
   */
  waitForDatabaseLock?: boolean;
  /**
   * How long to wait for another sandbox's lock (a server database's or a PGlite data dir's), seconds, before
   * failing with `SANDBOX_DATABASE_LOCKED` (`details.waitedSecs`). Default 600: a holder that hangs (stopped, not
   * dead: its session stays open) would otherwise block a CI job until the job's own timeout, with no coded error.
   */
  databaseLockTimeoutSecs?: number;
  /** With `databaseUrl`, how long to retry a server that is unreachable at start, seconds. Default 60. */
  databaseStartTimeoutSecs?: number;
  /**
   * The identity of the engines the legs run (default: kept in `<dataDir>/engines-id`, or a new one per start
   * without a data dir). Intents record it; a sandbox resolves and approves only intents whose funds are on its own
   * engines. Give one only for legs whose state is not in the data dir (test doubles that hold no funds).
   */
  enginesId?: string;
  /** Enables the `/sandbox/*` dev endpoints (faucet, chains, clock, faults, balance). */
  dev?: boolean;
  /** Base clock (default: `Date.now`). The dev clock endpoint adds an offset on top of it. */
  clock?: Clock;
  /**
   * Accepted `X-Api-Key` values; when empty or absent any non-empty key is accepted. Either way each distinct key
   * is its own partner: it sees only the quotes, intents and history it created.
   */
  apiKeys?: string[];
  /**
   * RSA public keys of partners (PEM, SPKI or PKCS#1), optionally with the key id a partner was issued; when given,
   * every `/affiliate/v1` request must be signed (design §2) and each key is its own partner.
   */
  publicKeys?: PublicKeyConfig[];
  /** Quote lifetime, seconds. Default 30. */
  quoteTtlSecs?: number;
  /** Intent lifetime (deadline_secs = now + this), seconds. Default 1800. */
  intentTtlSecs?: number;
  /** How often the resolver looks for work, ms. Default 250. */
  resolverIntervalMs?: number;
  /** How many steps the resolver takes with one intent in one pass (default 8; 1 makes each pass one transition). */
  resolverStepsPerPass?: number;
  /** Leg factories; a single factory is used for every network. */
  legs?: LegFactories | LegFactory;
  /** The catalogue (default: the five sandbox networks of apps/docs/pages/reference/approvals.md). */
  networks?: readonly NetworkConfig[];
  /** USD prices by symbol (default: {@link DEFAULT_PRICES}). */
  prices?: PriceTable;
  /** Symbols treated as stablecoins (default USDC, USDT). */
  stablecoins?: readonly string[];
  /** Largest quote accepted, in US dollars of the source amount. Default 10,000,000. */
  maxQuoteUsd?: bigint;
  /** Rate limit (see {@link RateLimit} for what it counts); none when absent. */
  rateLimit?: RateLimit;
  /** Log sink (default: stderr with a timestamp; `() => {}` silences it). Secrets are never passed to it. */
  log?: (message: string) => void;
}

/** A running sandbox. */
export interface Sandbox {
  /** Base URL, for example `http://127.0.0.1:43121` (the API lives under `/affiliate/v1`). */
  url: string;
  port: number;
  /** The catalogue with each network's leg facts (what `GET /sandbox/chains` returns). */
  chains(): ChainInfo[];
  /** The leg of a network (for tests and e2e: balances, faucet). */
  leg(networkId: number): ChainLeg;
  /** The sandbox clock (base clock + dev offset). */
  clock: Clock;
  /** Move the sandbox clock forward. */
  advanceClock(secs: number): Promise<void>;
  /** Set dev faults. */
  setFaults(faults: Partial<Faults>): Faults;
  /**
   * Answer a request in this process, without a socket (tests, fuzzing): the app the server runs, minus what
   * node:http does before it (header limits, keep-alive). The rate limit counts such requests as one client.
   */
  fetch(request: Request): Promise<Response>;
  /** Run one resolver pass now (tests). */
  runResolverOnce(): Promise<void>;
  /** Stop the resolver, the legs, the server and the database. Idempotent. */
  close(): Promise<void>;
}

/** One network of `GET /sandbox/chains`. */
export interface ChainInfo {
  network_id: number;
  name: string;
  type: string;
  approval_mechanism: string;
  info: Record<string, Json>;
}

export type { PriceTable };
