/**
 * The caller's `AbortSignal` ends a call at once: while the request is being signed (nothing reaches the server) and
 * while a Retry-After wait runs (no timer left).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { intentId, networksWire, permit2IntentWire, quoteId, statusWire } from "../../test/fixtures.js";
import { rejection } from "../../test/helpers.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";
import { createSwapIntentClient } from "./createSwapIntentClient.js";

const apiKey = "sk_live_Hostile3Key7";
const baseUrl = "https://swap.example";
const intentParams = {
  quote: quoteId,
  refundAddress: "0xrefund",
  userSourceAddress: "0xsource",
  userDestinationAddress: "0xdest",
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** A client on a custom `fetch` (what a wallet passes: a polyfill, a proxy wrapper, a test double). */
function withFetch(fetchFn: (url: string, init: RequestInit) => unknown, extra = {}) {
  return createSwapIntentClient({ baseUrl, apiKey, retry: false, fetch: fetchFn as typeof fetch, ...extra });
}

describe("a signal aborted while the request is being signed", () => {
  it("POST /intents: ABORTED, and nothing reaches the server", async () => {
    server.handle((request) =>
      request.path === "/affiliate/v1/networks" ? { body: networksWire } : { body: permit2IntentWire() },
    );
    const controller = new AbortController();
    const client = createSwapIntentClient({
      baseUrl: server.url,
      retry: false,
      requestSigning: async ({ method }) => {
        if (method === "POST") {
          controller.abort();
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        return { "x-api-key": "key-id", "x-api-signature": "sig" };
      },
    });
    const error = await rejection(client.createIntent({ ...intentParams, signal: controller.signal }));
    expect(error.code).toBe("ABORTED");
    expect(server.requests.filter((request) => request.method === "POST")).toHaveLength(0);
  });

  it("GET status: ABORTED, nothing sent", async () => {
    server.handle(() => ({ body: statusWire("Initiated") }));
    const controller = new AbortController();
    const client = createSwapIntentClient({
      baseUrl: server.url,
      retry: false,
      requestSigning: async () => {
        controller.abort();
        return { "x-api-key": "key-id", "x-api-signature": "sig" };
      },
    });
    const error = await rejection(client.getIntentStatus({ intentId, signal: controller.signal }));
    expect(error.code).toBe("ABORTED");
    expect(server.requests).toHaveLength(0);
  });
});

describe("a signal aborted during a Retry-After wait", () => {
  it("an abort during a Retry-After wait ends the call at once, with no timer left; Retry-After above maxRetryAfterMs is not waited", async () => {
    // on a fake clock that never moves: the call must end on the abort itself, not when the 20 s wait runs out
    vi.useFakeTimers();
    try {
      const busy = vi.fn(async () => new Response("{}", { status: 503, headers: { "retry-after": "20" } }));
      const controller = new AbortController();
      let settled = false;
      const call = rejection(
        withFetch(busy, { retry: { retries: 3 } }).getNetworks({ signal: controller.signal }),
      ).finally(() => {
        settled = true;
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(busy).toHaveBeenCalledTimes(1);
      expect(vi.getTimerCount()).toBe(1); // the wait
      controller.abort();
      await vi.advanceTimersByTimeAsync(0); // not a millisecond of the wait passes
      expect(settled).toBe(true);
      expect((await call).code).toBe("ABORTED");
      expect(busy).toHaveBeenCalledTimes(1);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
    const tooLong = async () => new Response("{}", { status: 429, headers: { "retry-after": "31" } });
    const limited = await rejection(withFetch(tooLong, { retry: { retries: 3 } }).getNetworks());
    expect(limited).toMatchObject({ code: "RATE_LIMITED", details: { retryAfterMs: 31_000 } });
  });
});
