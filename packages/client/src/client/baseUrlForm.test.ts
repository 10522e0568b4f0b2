/**
 * A `baseUrl` whose text would move every path into a query or fragment is refused at construction; spaces around a
 * good one (read from a file) are dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { networksWire } from "../../test/fixtures.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";
import { createSwapIntentClient } from "./createSwapIntentClient.js";

const apiKey = "sk_live_Hostile3Key7";
const _baseUrl = "https://swap.example";
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** The timers Node holds right now. */
const _timers = () => process.getActiveResourcesInfo().filter((name) => name === "Timeout").length;

describe("a baseUrl whose text would move the path into a query or fragment", () => {
  for (const bad of [
    "https://swap.example/?x=1",
    "https://swap.example?",
    "https://swap.example#top",
    "https://swap.example/api#",
  ]) {
    it(`${bad}: INVALID_OPTIONS at construction (every request went to "/")`, () => {
      let error: unknown;
      try {
        createSwapIntentClient({ baseUrl: bad, apiKey });
      } catch (caught) {
        error = caught;
      }
      expect(error).toMatchObject({ code: "INVALID_OPTIONS", details: { field: "baseUrl" } });
    });
  }

  it("spaces or tabs around an otherwise good baseUrl (read from a file): requests reach its path", async () => {
    server.handle(() => ({ body: networksWire }));
    const client = createSwapIntentClient({ baseUrl: ` \t${server.url}/api/ \n`, apiKey, retry: false });
    await client.getNetworks();
    expect(server.requests.map((request) => request.path)).toEqual(["/api/affiliate/v1/networks"]);
  });
});
