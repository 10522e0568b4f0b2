/** What one statement returned. */
export interface SqlResult<T> {
  rows: T[];
  /** Rows inserted, updated or deleted (0 for a SELECT). */
  affectedRows: number;
}

/** Runs statements; inside a transaction, every statement runs on the transaction's connection. */
export interface SqlQueryable {
  /** One statement with `$1…` parameters. */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<SqlResult<T>>;
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/**
 * The seam between the store and a database engine: PGlite (embedded, one connection, serial) or a PostgreSQL
 * server (a pool). Both parse values the same way: int8 as a number when it is a safe integer (else a bigint),
 * numeric as text, jsonb as JSON, timestamptz as a Date.
 *
 * Writes ({@link SqlQueryable.query}, {@link SqlDatabase.transaction}) run one at a time, in the order they were
 * called, as on PGlite: the store's status cache relies on it. {@link SqlDatabase.read} may run beside them.
 */
export interface SqlDatabase extends SqlQueryable {
  /** A read-only statement; on a server it runs on a pool of readers, beside the writes. */
  read<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<SqlResult<T>>;
  /** Run `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T>;
  /** Close every connection. */
  close(): Promise<void>;
}
