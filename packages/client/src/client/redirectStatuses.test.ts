/**
 * Every 3xx is a refused redirect (`REDIRECT_REFUSED`): nothing is sent to its Location, and it is not retried.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejection } from "../../test/helpers.js";
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

describe("every 3xx is a refused redirect", () => {
  for (const status of [300, 304, 305, 306, 399]) {
    it(`${status} with a Location elsewhere: REDIRECT_REFUSED, nothing sent there, not retried`, async () => {
      const elsewhere = await startTestServer();
      try {
        server.handle(() => ({ status, headers: { location: `${elsewhere.url}/steal` }, body: "" }));
        const error = await rejection(createSwapIntentClient({ baseUrl: server.url, apiKey }).getNetworks());
        expect(error).toMatchObject({ code: "REDIRECT_REFUSED", details: { status } });
        expect(server.requests).toHaveLength(1);
        expect(elsewhere.requests).toHaveLength(0);
      } finally {
        await elsewhere.close();
      }
    });
  }
});
