import { createDatabaseError, redactDatabaseUrl } from "./databaseError.js";
import { driverCode, isRefused } from "./postgresConnection.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Connect once through `connect` (which resolves when a connection works), retrying with backoff (200 ms doubling,
 * at most 5 s apart) while the server is unreachable, for at most `timeoutMs`; each retry is logged with the
 * redacted URL. Throws `SANDBOX_DATABASE_REFUSED` at once when the server refuses us, `SANDBOX_DATABASE_UNREACHABLE`
 * when the time is up.
 */
export async function connectWithRetry({
  url,
  connect,
  timeoutMs,
  log,
}: {
  url: string;
  connect: () => Promise<void>;
  timeoutMs: number;
  log: (message: string) => void;
}): Promise<void> {
  const shownUrl = redactDatabaseUrl(url);
  const deadline = Date.now() + timeoutMs;
  let delayMs = 200;
  for (let attempts = 1; ; attempts++) {
    try {
      await connect();
      if (attempts > 1) log(`database ${shownUrl} reachable after ${attempts} attempts`);
      return;
    } catch (error) {
      const code = driverCode(error);
      if (isRefused(error))
        throw createDatabaseError(
          "SANDBOX_DATABASE_REFUSED",
          "The database server refused the connection (check the user, password and database name).",
          { url: shownUrl, sqlState: code },
        );
      if (Date.now() + delayMs > deadline)
        throw createDatabaseError(
          "SANDBOX_DATABASE_UNREACHABLE",
          `The database server was not reachable within ${Math.round(timeoutMs / 1000)} s.`,
          { url: shownUrl, attempts, lastErrorCode: code },
        );
      log(`database ${shownUrl} not reachable (${code}); retrying in ${delayMs} ms`);
      await sleep(delayMs);
      delayMs = Math.min(delayMs * 2, 5_000);
    }
  }
}
