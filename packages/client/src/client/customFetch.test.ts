/**
 * A custom `fetch` (a polyfill, a proxy wrapper, a test double) that ignores the abort signal, never settles, answers
 * late, returns no Response or throws what is not an Error: each call still ends on time with a coded error, and no
 * timer is left behind.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { networksWire } from "../../test/fixtures.js";
import { rejection } from "../../test/helpers.js";
import { settleAfter } from "../../test/settleAfter.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";
import { createSwapIntentClient } from "./createSwapIntentClient.js";

const apiKey = "sk_live_Hostile3Key7";
const baseUrl = "https://swap.example";
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

describe("a fetch or body that ignores the abort signal still ends the attempt on time", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const never = () => new Promise(() => {});
  /** A body that sends `[` and then nothing, ignoring the signal; records whether it was cancelled. */
  function endlessBody() {
    const state = { cancelled: false };
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode("[")),
      cancel: () => {
        state.cancelled = true;
      },
    });
    return { state, response: new Response(body, { status: 200 }) };
  }

  it("a fetch that never settles: TIMEOUT at timeoutMs, ABORTED when the caller aborts", async () => {
    const call = withFetch(never, { timeoutMs: 50 }).getNetworks();
    expect(await settleAfter(call, 49)).toBe("still pending");
    expect(await settleAfter(call, 1)).toBe("TIMEOUT");
    const controller = new AbortController();
    const aborted = withFetch(never).getNetworks({ signal: controller.signal });
    expect(await settleAfter(aborted, 50)).toBe("still pending");
    controller.abort();
    expect(await settleAfter(aborted, 0)).toBe("ABORTED");
  });

  it("a fetch that resolves after the deadline: TIMEOUT, its late answer is not used", async () => {
    const late = () =>
      new Promise((resolve) => setTimeout(() => resolve(new Response(JSON.stringify(networksWire))), 300));
    const call = withFetch(late, { timeoutMs: 50 }).getNetworks();
    expect(await settleAfter(call, 50)).toBe("TIMEOUT");
    expect(await settleAfter(call, 250)).toBe("TIMEOUT"); // the answer arrives, and changes nothing
  });

  it("a body that never ends and ignores the signal: TIMEOUT or ABORTED, and the body is cancelled", async () => {
    const timedOut = endlessBody();
    const call = withFetch(async () => timedOut.response, { timeoutMs: 50 }).getNetworks();
    expect(await settleAfter(call, 49)).toBe("still pending");
    expect(await settleAfter(call, 1)).toBe("TIMEOUT");
    expect(timedOut.state.cancelled).toBe(true);
    const aborted = endlessBody();
    const controller = new AbortController();
    const abortedCall = withFetch(async () => aborted.response).getNetworks({ signal: controller.signal });
    expect(await settleAfter(abortedCall, 50)).toBe("still pending");
    controller.abort();
    expect(await settleAfter(abortedCall, 0)).toBe("ABORTED");
    expect(aborted.state.cancelled).toBe(true);
  });

  it("an oversized body whose cancel never settles: RESPONSE_TOO_LARGE at once, not a hang", async () => {
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new Uint8Array(64)),
      cancel: () => new Promise(() => {}),
    });
    const call = withFetch(async () => new Response(body), { maxResponseBytes: 10 }).getNetworks();
    expect(await settleAfter(call, 0)).toBe("RESPONSE_TOO_LARGE");
  });

  it("no timer is left behind once such calls settle", async () => {
    const calls = [
      withFetch(never, { timeoutMs: 30 }).getNetworks(),
      withFetch(async () => endlessBody().response, { timeoutMs: 30 }).getNetworks(),
      withFetch(async () => new Response(JSON.stringify(networksWire))).getNetworks(),
    ];
    const settled = (await settleAfter(Promise.allSettled(calls), 30)) as {
      value?: PromiseSettledResult<unknown>[];
    };
    expect(settled.value?.map((result) => result.status)).toEqual(["rejected", "rejected", "fulfilled"]);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("a fetch that answers with what is not a Response", () => {
  it("a fetch that returns no Response, or throws what is not an Error: NETWORK_ERROR, never a raw TypeError", async () => {
    const fetches: Array<() => unknown> = [
      async () => undefined,
      async () => "200 OK",
      async () => ({ status: 200, ok: true }),
      async () => {
        throw "socket closed";
      },
      async () => {
        throw undefined;
      },
      () => {
        throw new Error("synchronous");
      },
    ];
    for (const fetchFn of fetches)
      expect((await rejection(withFetch(fetchFn).getNetworks())).code).toBe("NETWORK_ERROR");
  });
});
