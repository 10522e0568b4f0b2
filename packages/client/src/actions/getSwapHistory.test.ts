import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { statusWire } from "../../test/fixtures.js";
import { rejection, testClient } from "../../test/helpers.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";
import type { SwapHistoryItem } from "../types.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

function historyItem(index: number): Record<string, unknown> {
  return {
    ...statusWire(index % 2 === 0 ? "Fulfilled" : "RefundRquested", {
      intent_id: `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`,
      swap_metadata: { id: `10000000-0000-4000-8000-${String(index).padStart(12, "0")}` },
    }),
    kyc_link: index === 0 ? "https://kyc.example/0" : null,
  };
}

function historyPage(query: URLSearchParams, total: number) {
  const limit = Number(query.get("limit") ?? 20);
  const offset = Number(query.get("offset") ?? 0);
  const items = [];
  for (let i = offset; i < Math.min(total, offset + limit); i++) items.push(historyItem(i));
  return { items, limit, offset, total };
}

describe("getSwapHistory", () => {
  it("repeats wallet=, sends retail_id and active, and parses items with subset metadata", async () => {
    server.handle((request) => ({ body: historyPage(request.query, 3) }));
    const page = await testClient(server).getSwapHistory({
      wallet: ["0xabc", "bc1qxyz"],
      retailId: "retail-7",
      active: true,
      limit: 2,
      offset: 0,
    });
    expect(server.requests[0]?.path).toBe("/affiliate/v1/swaps/history");
    expect(server.requests[0]?.query.getAll("wallet")).toEqual(["0xabc", "bc1qxyz"]);
    expect(server.requests[0]?.rawQuery).toBe(
      "active=true&limit=2&offset=0&retail_id=retail-7&wallet=0xabc&wallet=bc1qxyz",
    );
    expect(page.total).toBe(3);
    expect(page.items).toHaveLength(2);
    expect(page.items[0]?.kycLink).toBe("https://kyc.example/0");
    expect(page.items[1]?.kycLink).toBeNull();
    expect(page.items[1]?.status).toBe("RefundRequested");
    expect(page.items[1]?.swapMetadata).toEqual({
      id: "10000000-0000-4000-8000-000000000001",
      proxyAddress: null,
      userDepositTx: null,
      fulfillTx: null,
      swapTx: null,
      createdAt: null,
      userDepositedAt: null,
      kycRequestedAt: null,
      fulfilledAt: null,
      swappedAt: null,
      refundedAt: null,
    });
  });

  it("a single wallet string is one wallet= parameter; retail_id alone is enough", async () => {
    server.handle((request) => ({ body: historyPage(request.query, 0) }));
    await testClient(server).getSwapHistory({ wallet: "0xabc" });
    await testClient(server).getSwapHistory({ retailId: "r1" });
    expect(server.requests.map((r) => r.rawQuery)).toEqual(["wallet=0xabc", "retail_id=r1"]);
  });

  it("refuses a request with neither wallet nor retailId, and bad filters, before any request", async () => {
    server.handle((request) => ({ body: historyPage(request.query, 0) }));
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, "wallet"],
      [{ wallet: [] }, "wallet"],
      [{ wallet: ["0xabc", ""] }, "wallet[1]"],
      [{ retailId: "" }, "retailId"],
      [{ wallet: "a", active: "yes" }, "active"],
      [{ wallet: "a", limit: 500 }, "limit"],
      [{ wallet: "a", offset: -5 }, "offset"],
    ];
    for (const [params, field] of cases) {
      const error = await rejection(testClient(server).getSwapHistory(params));
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.details.field).toBe(field);
    }
    expect(server.requests).toHaveLength(0);
  });

  it("refuses a wallet that is neither a string nor an array of strings, naming the item, even with a retailId", async () => {
    const cases: Array<[unknown, string]> = [
      [5, "wallet[0]"],
      [null, "wallet[0]"],
      [{ 0: "0xabc", length: 1 }, "wallet[0]"],
      [new Set(["0xabc"]), "wallet[0]"],
      [[["0xabc"]], "wallet[0]"],
      [["0xabc", 7], "wallet[1]"],
    ];
    for (const [wallet, field] of cases) {
      const error = await rejection(testClient(server).getSwapHistory({ wallet, retailId: "r1" } as never));
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.details).toMatchObject({ field, reason: "must be a non-empty string" });
    }
    expect(server.requests).toHaveLength(0);
  });

  it("the service's 400 for a bad filter is BAD_REQUEST", async () => {
    server.handle(() => ({
      status: 400,
      body: { code: 400, message: "wallet or retail_id required", entity: "Swap" },
    }));
    const error = await rejection(testClient(server).getSwapHistory({ wallet: "x" }));
    expect(error.code).toBe("BAD_REQUEST");
    expect(error.details.serverMessage).toBe("wallet or retail_id required");
  });
});

describe("iterateSwapHistory", () => {
  it("walks every page", async () => {
    server.handle((request) => ({ body: historyPage(request.query, 7) }));
    const items: SwapHistoryItem[] = [];
    for await (const item of testClient(server).iterateSwapHistory({ wallet: "0xabc", pageSize: 3 }))
      items.push(item);
    expect(items.map((i) => i.intentId.slice(-2))).toEqual(["00", "01", "02", "03", "04", "05", "06"]);
    expect(server.requests.map((r) => r.query.get("offset"))).toEqual(["0", "3", "6"]);
  });

  it("a server that ignores offset (the first page again, a huge total): RESPONSE_INVALID, not an endless loop", async () => {
    server.handle(() => ({ body: { ...historyPage(new URLSearchParams("limit=3"), 3), total: 1e9 } }));
    const items: SwapHistoryItem[] = [];
    const error = await rejection(async () => {
      for await (const item of testClient(server).iterateSwapHistory({ wallet: "0xabc", pageSize: 3 }))
        items.push(item);
    });
    expect(error.code).toBe("RESPONSE_INVALID");
    expect(error.details.issues).toEqual([{ path: "offset", message: "expected 3" }]);
    expect(items).toHaveLength(3);
    expect(server.requests).toHaveLength(2);
  });

  it("checks the filter before the first request", async () => {
    server.handle((request) => ({ body: historyPage(request.query, 7) }));
    const iterator = testClient(server).iterateSwapHistory({});
    const error = await rejection(iterator.next());
    expect(error.details.field).toBe("wallet");
    expect(server.requests).toHaveLength(0);
  });
});
