import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { networksWire } from "../../test/fixtures.js";
import { rejection, testClient } from "../../test/helpers.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("getNetworks", () => {
  it("GETs the catalogue and camelCases it", async () => {
    server.handle(() => ({ body: networksWire }));
    const networks = await testClient(server).getNetworks();
    expect(server.requests[0]?.path).toBe("/affiliate/v1/networks");
    expect(networks[1]).toEqual({
      id: 2,
      name: "Sandbox L2",
      type: "EVM",
      supportsOptimizedSwap: false,
      iconUrl: "https://x/l2.png",
      supportsCustomTokens: true,
    });
    expect(networks.map((n) => n.type)).toEqual(["EVM", "EVM", "TRON", "BITCOIN", "SOLANA"]);
  });

  it("a body that is not an array is RESPONSE_INVALID", async () => {
    server.handle(() => ({ body: { networks: networksWire } }));
    const error = await rejection(testClient(server).getNetworks());
    expect(error.code).toBe("RESPONSE_INVALID");
  });
});
