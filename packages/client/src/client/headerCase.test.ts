/**
 * Option headers that differ from the client's own only in letter case cannot join or replace `X-Api-Key`,
 * `Content-Type` or a signature: each header reaches the server once, under its name in lower case.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intentId, networksWire, permit2IntentWire, quoteId } from "../../test/fixtures.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";
import { createSwapIntentClient } from "./createSwapIntentClient.js";

const apiKey = "sk_live_Hostile3Key7";
const _baseUrl = "https://swap.example";
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

/** The timers Node holds right now. */
const _timers = () => process.getActiveResourcesInfo().filter((name) => name === "Timeout").length;

describe("option headers that differ from the client's own only in letter case", () => {
  it("cannot join or replace X-Api-Key, Content-Type or a signature: each reaches the server once, the client's", async () => {
    server.handle((request) =>
      request.path === "/affiliate/v1/networks" ? { body: networksWire } : { body: permit2IntentWire() },
    );
    const headers = {
      "X-Api-Key": "sk_other",
      "Content-Type": "text/plain",
      "X-API-SIGNATURE": "forged",
      "X-Api-Timestamp": "1",
    };
    await createSwapIntentClient({ baseUrl: server.url, apiKey, retry: false, headers }).createIntent(
      intentParams,
    );
    const [post] = server.requests.filter((request) => request.method === "POST");
    expect(post?.headers["x-api-key"]).toBe(apiKey);
    expect(post?.headers["content-type"]).toBe("application/json");
    const signed = createSwapIntentClient({
      baseUrl: server.url,
      retry: false,
      headers,
      requestSigning: async () => ({
        "x-api-key": "key-id",
        "x-api-signature": "sig",
        "x-api-timestamp": "9",
      }),
    });
    await signed.getIntentStatus({ intentId }).catch(() => {});
    const get = server.requests.at(-1);
    expect([
      get?.headers["x-api-key"],
      get?.headers["x-api-signature"],
      get?.headers["x-api-timestamp"],
    ]).toEqual(["key-id", "sig", "9"]);
  });

  it("a header the client does not set is sent once, under its name in lower case; hooks see one entry per name", async () => {
    server.handle(() => ({ body: networksWire }));
    const seen: Record<string, string>[] = [];
    await createSwapIntentClient({
      baseUrl: server.url,
      apiKey,
      retry: false,
      headers: { "X-Partner": "wallet-a", Accept: "application/json" },
      hooks: { onRequest: (event) => seen.push(event.headers) },
    }).getNetworks();
    expect(server.requests[0]?.headers["x-partner"]).toBe("wallet-a");
    expect(server.requests[0]?.headers.accept).toBe("application/json");
    expect(Object.keys(seen[0] ?? {}).sort()).toEqual(["accept", "x-api-key", "x-partner"]);
  });
});
