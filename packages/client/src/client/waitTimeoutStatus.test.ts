/**
 * Server text carried out of a result into a later error: `WAIT_TIMEOUT` names the last status only when this
 * version knows it, so a status that echoes the key never reaches the error.
 */
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intentId, statusWire } from "../../test/fixtures.js";
import { rejection } from "../../test/helpers.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";
import { createSwapIntentClient } from "./createSwapIntentClient.js";

const apiKey = "sk_live_Hostile2Key9";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

function client(extra: Partial<Parameters<typeof createSwapIntentClient>[0]> = {}) {
  return createSwapIntentClient({
    baseUrl: server.url,
    apiKey,
    retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2 },
    ...extra,
  });
}

/** Everything an error can show: message, stack, details, cause chain, toString and JSON. */
function everything(error: unknown): string {
  return [
    inspect(error, { depth: 20, showHidden: true }),
    String(error),
    (error as Error).stack,
    JSON.stringify(error),
  ].join("\n");
}

describe("server text carried out of a result into a later error", () => {
  it("WAIT_TIMEOUT: an unknown status that echoes the key (100 kB) is reported as Unknown, not quoted", async () => {
    server.handle(() => ({ body: statusWire(`${apiKey}${"s".repeat(100_000)}`) }));
    const error = await rejection(client().waitForIntent({ intentId, intervalMs: 5, timeoutMs: 1500 }));
    expect(error.code).toBe("WAIT_TIMEOUT");
    expect(error.details.lastStatus).toBe("Unknown");
    expect(everything(error)).not.toContain(apiKey);
    expect(everything(error).length).toBeLessThan(10_000);
  });

  it("WAIT_TIMEOUT: a known status keeps the service's spelling", async () => {
    server.handle(() => ({ body: statusWire("RefundRquested") }));
    const error = await rejection(client().waitForIntent({ intentId, intervalMs: 5, timeoutMs: 1500 }));
    expect(error.details.lastStatus).toBe("RefundRquested");
  });
});
