/**
 * A state-changing POST (`createIntent`, `submitApproval`) is never retried: whatever the server answers or does
 * to the connection, it receives one request, and the caller gets a coded error.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intentId, networksWire, quoteId } from "../../test/fixtures.js";
import { rejection } from "../../test/helpers.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";
import { createSwapIntentClient } from "./createSwapIntentClient.js";

const apiKey = "sk_live_Hostile2Key9";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  // one call first, so the cases' 200 ms timeout does not also pay for loading fetch and opening the first socket
  await rejection(client().getNetworks());
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

describe("a state-changing POST is sent once, whatever the server does", () => {
  const replies = [
    ["a reset after the request was read", { destroy: true }, "NETWORK_ERROR"],
    ["a 503 with Retry-After: 0", { status: 503, headers: { "retry-after": "0" }, body: "" }, "SERVER_ERROR"],
    ["a 429 with Retry-After: 0", { status: 429, headers: { "retry-after": "0" }, body: "" }, "RATE_LIMITED"],
    ["no answer until the timeout", { hang: true }, "TIMEOUT"],
  ] as const;
  for (const [name, reply, code] of replies) {
    it(`createIntent and submitApproval after ${name}: ${code}, one POST each`, async () => {
      server.handle((request) => (request.path.endsWith("/networks") ? { body: networksWire } : reply));
      const fast = client({ timeoutMs: 200 });
      const created = await rejection(
        fast.createIntent({
          quote: quoteId,
          refundAddress: "0xr",
          userSourceAddress: "0xs",
          userDestinationAddress: "0xd",
        }),
      );
      const approved = await rejection(
        fast.submitApproval({
          intentId,
          approval: { type: "permit2", signedData: `0x${"ab".repeat(64)}1c` },
        }),
      );
      expect([created.code, approved.code]).toEqual([code, code]);
      expect(server.requests.filter((r) => r.method === "POST").map((r) => r.path)).toEqual([
        "/affiliate/v1/intents",
        `/affiliate/v1/intents/${intentId}/approvals`,
      ]);
    });
  }
});
