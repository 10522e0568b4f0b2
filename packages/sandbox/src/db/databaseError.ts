import { type CodedError, SwapIntentError } from "@swapintent/client";
import { hasErrorCode } from "@swapintent/client/internal";

/**
 * The sandbox database's failures, by code, with the facts each carries. Never a password: a URL in details is
 * always the redacted one (see {@link redactDatabaseUrl}).
 */
export interface DatabaseErrorDetails {
  /** `databaseUrl` is not a `postgres://` or `postgresql://` URL (the URL itself is not repeated: it may hold a password). */
  SANDBOX_DATABASE_URL_INVALID: {
    /** What is wrong with it. */
    reason: string;
  };
  /** The server was not reachable before the start timeout ran out (it retried with backoff until then). */
  SANDBOX_DATABASE_UNREACHABLE: {
    /** The URL, password replaced by `***`. */
    url: string;
    /** Connection attempts made. */
    attempts: number;
    /** The last attempt's error code (for example `ECONNREFUSED`, or a SQLSTATE such as `57P03`). */
    lastErrorCode: string;
  };
  /** The server answered and refused us (bad password, unknown database or user): retrying would not help. */
  SANDBOX_DATABASE_REFUSED: {
    /** The URL, password replaced by `***`. */
    url: string;
    /** The server's SQLSTATE, for example `28P01` (password) or `3D000` (no such database). */
    sqlState: string;
  };
  /**
   * Another sandbox holds the resolver lock of this database, or runs on this PGlite data dir: at once with
   * `waitForDatabaseLock: false` (`--no-wait`), or after waiting `databaseLockTimeoutSecs` (`--lock-timeout`,
   * default 600) for it.
   */
  SANDBOX_DATABASE_LOCKED: {
    /** The URL, password replaced by `***`; for a PGlite data dir in use, its `file://` URL. */
    url: string;
    /** Who holds it, as the holder's connection named itself (`swapintent-sandbox pid=… host=…`), when known. */
    holder: string | null;
    /** How long this sandbox waited for the lock, seconds (0 with `--no-wait`). */
    waitedSecs: number;
  };
  /**
   * The database went away during a statement (server restarted or dropped, connection lost), or this sandbox lost
   * the resolver lock's connection, which is its only writer, and has not taken the lock again (another sandbox may
   * hold it). The statement's transaction did not commit, or its outcome is unknown: read again before acting.
   * HTTP answers 503.
   */
  SANDBOX_DATABASE_UNAVAILABLE: {
    /**
     * The driver's error code (for example `ECONNRESET`, `57P01`), `lock_lost` when the write was refused because the
     * lock is not held, or `closed` when the database was closed.
     */
    driverCode: string;
  };
}

/** A sandbox database error code. */
export type DatabaseErrorCode = keyof DatabaseErrorDetails;

/** A sandbox database error; narrowing `code` narrows `details`. */
export type DatabaseError<C extends DatabaseErrorCode = DatabaseErrorCode> = CodedError<
  DatabaseErrorDetails,
  C
>;

/** Every code, kept equal to {@link DatabaseErrorCode} by the compiler. */
const DATABASE_ERROR_CODES: Record<DatabaseErrorCode, true> = {
  SANDBOX_DATABASE_URL_INVALID: true,
  SANDBOX_DATABASE_UNREACHABLE: true,
  SANDBOX_DATABASE_REFUSED: true,
  SANDBOX_DATABASE_LOCKED: true,
  SANDBOX_DATABASE_UNAVAILABLE: true,
};

/**
 * True when `error` is a sandbox database error (optionally with this code).
 *
 * @example if (isDatabaseError(error, "SANDBOX_DATABASE_UNAVAILABLE")) answer503(error.details.driverCode);
 */
export function isDatabaseError<C extends DatabaseErrorCode>(
  error: unknown,
  code?: C,
): error is DatabaseError<C> {
  return hasErrorCode(error, DATABASE_ERROR_CODES, code);
}

/** Create a database error; the compiler checks `details` against `code`. */
export function createDatabaseError<C extends DatabaseErrorCode>(
  code: C,
  shortMessage: string,
  details: DatabaseErrorDetails[C],
  cause?: unknown,
): DatabaseError<C> {
  return new SwapIntentError(code, shortMessage, { details, cause }) as DatabaseError<C>;
}

/**
 * `url` with its password (and any query string, which may carry one) replaced by `***` and any fragment dropped, for logs and errors.
 *
 * @example redactDatabaseUrl("postgres://app:s3cret@db:5432/sandbox") // "postgres://app:***@db:5432/sandbox"
 */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    if (parsed.search !== "") parsed.search = "?***";
    if (parsed.hash !== "") parsed.hash = "";
    return parsed.toString();
  } catch {
    return "(unparseable URL)";
  }
}
