/**
 * Callbacks a careless caller writes as `async` (a logger that posts each event): a rejected promise from a hook
 * is ignored like a throw, never an unhandled rejection (fatal in Node by default); a rejected `onStatusChange`
 * fails `waitForIntent` like a throw, instead of escaping unhandled while polling goes on.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { networksWire, statusWire } from "../../test/fixtures.js";
import { rejection } from "../../test/helpers.js";
import { createSwapIntentClient } from "./createSwapIntentClient.js";
import type { ClientOptions } from "./types.js";

const intentId = "9b8a7c6d-5e4f-4a3b-9c2d-1e0f2a3b4c5d";
let unhandled: unknown[] = [];
const record = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled = [];
  process.on("unhandledRejection", record);
});
afterEach(() => {
  process.off("unhandledRejection", record);
});

/** Lets every pending rejection reach the `unhandledRejection` event. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

function clientWith(options: Partial<ClientOptions>, answers: Array<() => Response>) {
  let call = 0;
  return createSwapIntentClient({
    baseUrl: "https://swap.example",
    apiKey: "sk_live_AsyncHooks0123456",
    retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 1 },
    fetch: async () => (answers[Math.min(call++, answers.length - 1)] as () => Response)(),
    ...options,
  });
}

describe("hooks that return a rejected promise", () => {
  it("onRequest, onResponse and onRetry rejecting: the call succeeds and nothing is left unhandled", async () => {
    const fail = async () => {
      throw new Error("logger down");
    };
    const client = clientWith({ hooks: { onRequest: fail, onResponse: fail, onRetry: fail } }, [
      () => new Response("", { status: 503 }),
      () => new Response(JSON.stringify(networksWire)),
    ]);
    const networks = await client.getNetworks();
    expect(networks.length).toBeGreaterThan(0);
    await settle();
    expect(unhandled).toEqual([]);
  });

  it("a thenable that rejects is ignored too", async () => {
    const thenable = () => ({
      // biome-ignore lint/suspicious/noThenProperty: the test needs a thenable that is no Promise
      then: (_: unknown, reject: (e: Error) => void) => reject(new Error("no")),
    });
    const client = clientWith({ hooks: { onResponse: thenable as never } }, [
      () => new Response(JSON.stringify(networksWire)),
    ]);
    await client.getNetworks();
    await settle();
    expect(unhandled).toEqual([]);
  });
});

describe("waitForIntent with an async onStatusChange", () => {
  it("a rejection fails the wait with that error, and polling stops", async () => {
    let polls = 0;
    const failure = new Error("UI update failed");
    const client = clientWith({}, [
      () => {
        polls++;
        return new Response(JSON.stringify(statusWire("Initiated")));
      },
    ]);
    const error = await rejection(
      client.waitForIntent({
        intentId,
        intervalMs: 5,
        timeoutMs: 2000,
        onStatusChange: async () => {
          throw failure;
        },
      }),
    );
    expect(error).toBe(failure);
    const seen = polls;
    await settle();
    expect(polls).toBe(seen);
    expect(unhandled).toEqual([]);
  });
});
