/**
 * The setup the transport-safety tests share: one local test server for the file (started before its tests, closed
 * after), a client of it with fast retries, and everything an error can show, for secret-leak checks.
 */
import { inspect } from "node:util";
import { afterAll, beforeAll } from "vitest";
import { createSwapIntentClient } from "../src/client/createSwapIntentClient.js";
import { startTestServer, type TestServer } from "./startTestServer.js";

/** The API key these tests send: long enough to count as a secret, so every echo of it must be redacted. */
export const HOSTILE_TEST_API_KEY = "sk_live_Hostile2Key9";

/**
 * Starts a test server for the calling file and returns it (a stable handle on the file's server) and `client()`,
 * a client of it that sends `apiKey`, with 2 quick retries unless `extra` says otherwise.
 */
export function useTestServer(apiKey: string = HOSTILE_TEST_API_KEY) {
  let current: TestServer | undefined;
  beforeAll(async () => {
    current = await startTestServer();
  });
  afterAll(async () => {
    await current?.close();
  });
  const started = (): TestServer => {
    if (current === undefined) throw new Error("the test server is not started yet");
    return current;
  };
  const server: TestServer = {
    get url() {
      return started().url;
    },
    get requests() {
      return started().requests;
    },
    handle: (handler) => started().handle(handler),
    close: () => started().close(),
  };
  const client = (extra: Partial<Parameters<typeof createSwapIntentClient>[0]> = {}) =>
    createSwapIntentClient({
      baseUrl: server.url,
      apiKey,
      retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2 },
      ...extra,
    });
  return { server, client };
}

/** Everything an error can show: message, stack, details, cause chain, toString and JSON. */
export function everything(error: unknown): string {
  return [
    inspect(error, { depth: 20, showHidden: true }),
    String(error),
    (error as Error).stack,
    JSON.stringify(error),
  ].join("\n");
}
