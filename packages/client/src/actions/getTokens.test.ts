import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokensPageWire } from "../../test/fixtures.js";
import { rejection, testClient } from "../../test/helpers.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";
import type { TokenInfo } from "../types.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("getTokens", () => {
  it("sends limit, offset, q and network_id (sorted by key) and parses the page", async () => {
    server.handle((request) => ({ body: tokensPageWire(request.query, 45) }));
    const page = await testClient(server).getTokens({ q: "usd coin", networkId: 2, limit: 10, offset: 20 });
    expect(server.requests[0]?.path).toBe("/affiliate/v1/tokens");
    expect(server.requests[0]?.rawQuery).toBe("limit=10&network_id=2&offset=20&q=usd%20coin");
    expect(page.limit).toBe(10);
    expect(page.offset).toBe(20);
    expect(page.total).toBe(45);
    expect(page.items).toHaveLength(10);
    expect(page.items[1]).toEqual({
      networkId: 2,
      name: "Token 21",
      contractAddress: "0x0000000000000000000000000000000000000015",
      symbol: "T21",
      iconUrl: "https://x/t21.png",
      wrappedTokenAddress: "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
    });
    expect(page.items[0]?.wrappedTokenAddress).toBeNull();
  });

  it("sends no query when no filter is given; an empty wrapped_token_address is null", async () => {
    server.handle(() => ({
      body: {
        data: [
          {
            network_id: 1,
            name: "Ether",
            contract_address: "0xEeee",
            symbol: "ETH",
            icon_url: "i",
            wrapped_token_address: "",
          },
        ],
        pagination: { limit: 20, offset: 0, pages: 1, total: 1 },
      },
    }));
    const page = await testClient(server).getTokens();
    expect(server.requests[0]?.url).toBe("/affiliate/v1/tokens");
    expect(page.items[0]?.wrappedTokenAddress).toBeNull();
  });

  it("checks limit, offset and networkId before any request", async () => {
    server.handle((request) => ({ body: tokensPageWire(request.query, 1) }));
    for (const [params, field] of [
      [{ limit: 0 }, "limit"],
      [{ limit: 101 }, "limit"],
      [{ offset: -1 }, "offset"],
      [{ networkId: 1.5 }, "networkId"],
    ] as const) {
      const error = await rejection(testClient(server).getTokens(params));
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.details.field).toBe(field);
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe("iterateTokens", () => {
  it("a server that ignores offset (the first page again, a huge total): RESPONSE_INVALID, not an endless loop", async () => {
    server.handle(() => {
      const page = tokensPageWire(new URLSearchParams("limit=20"), 45);
      return { body: { ...page, pagination: { ...(page.pagination as object), total: 1e9 } } };
    });
    const tokens: TokenInfo[] = [];
    const error = await rejection(async () => {
      for await (const token of testClient(server).iterateTokens({ pageSize: 20 })) tokens.push(token);
    });
    expect(error.code).toBe("RESPONSE_INVALID");
    expect(error.details.issues).toEqual([{ path: "offset", message: "expected 20" }]);
    expect(tokens).toHaveLength(20);
    expect(server.requests).toHaveLength(2);
  });

  it("walks every page until total, passing the filter along", async () => {
    server.handle((request) => ({ body: tokensPageWire(request.query, 45) }));
    const tokens: TokenInfo[] = [];
    for await (const token of testClient(server).iterateTokens({ pageSize: 20, networkId: 3 }))
      tokens.push(token);
    expect(tokens).toHaveLength(45);
    expect(tokens.map((t) => t.symbol)).toEqual(Array.from({ length: 45 }, (_, i) => `T${i}`));
    expect(server.requests.map((r) => r.rawQuery)).toEqual([
      "limit=20&network_id=3&offset=0",
      "limit=20&network_id=3&offset=20",
      "limit=20&network_id=3&offset=40",
    ]);
  });

  it("stops at an empty page even if total claims more", async () => {
    server.handle((request) => ({
      body: {
        ...tokensPageWire(request.query, 3),
        pagination: { limit: 2, offset: Number(request.query.get("offset")), pages: 9, total: 99 },
      },
    }));
    const tokens: TokenInfo[] = [];
    for await (const token of testClient(server).iterateTokens({ pageSize: 2 })) tokens.push(token);
    expect(tokens).toHaveLength(3);
    expect(server.requests).toHaveLength(3);
  });

  it("breaking out stops fetching", async () => {
    server.handle((request) => ({ body: tokensPageWire(request.query, 500) }));
    let seen = 0;
    for await (const _token of testClient(server).iterateTokens({ pageSize: 10 })) {
      seen++;
      if (seen === 15) break;
    }
    expect(server.requests).toHaveLength(2);
  });
});
