import { createSwapIntentClient, type SwapIntentClient } from "../src/client/createSwapIntentClient.js";
import type { ClientOptions } from "../src/client/types.js";
import type { TestServer } from "./startTestServer.js";

/** A client against the test server with fast retries. */
export function testClient(server: TestServer, options: Partial<ClientOptions> = {}): SwapIntentClient {
  return createSwapIntentClient({
    baseUrl: server.url,
    apiKey: "sk_test_key",
    retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 4 },
    ...options,
  });
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown> | (() => unknown)): Promise<{
  code: string;
  shortMessage: string;
  details: Record<string, unknown>;
}> {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (error) {
    return error as { code: string; shortMessage: string; details: Record<string, unknown> };
  }
  throw new Error("expected a rejection");
}
