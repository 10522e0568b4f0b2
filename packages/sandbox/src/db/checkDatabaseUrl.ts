import { createDatabaseError } from "./databaseError.js";

/**
 * Check `url` before any connection: a `postgres://` or `postgresql://` URL. Throws `SANDBOX_DATABASE_URL_INVALID`
 * (whose message never repeats the URL: it may hold a password).
 */
export function checkDatabaseUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // No cause: URL's own error repeats the input, password included.
    throw createDatabaseError("SANDBOX_DATABASE_URL_INVALID", "The database URL is not a URL.", {
      reason: "not a URL: expected postgres://user:password@host:port/database",
    });
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:")
    throw createDatabaseError("SANDBOX_DATABASE_URL_INVALID", "The database URL is not a postgres:// URL.", {
      reason: `scheme ${parsed.protocol} is not postgres: or postgresql:`,
    });
  if (parsed.hostname === "" && !parsed.searchParams.has("host"))
    throw createDatabaseError("SANDBOX_DATABASE_URL_INVALID", "The database URL names no host.", {
      reason: "no host: expected postgres://user:password@host:port/database",
    });
  if (parsed.port !== "" && Number(parsed.port) === 0)
    throw createDatabaseError("SANDBOX_DATABASE_URL_INVALID", "The database URL's port is 0.", {
      reason: "port 0",
    });
}
