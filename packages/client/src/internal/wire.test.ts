import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { tokensPageWire } from "../../test/fixtures.js";
import { isClientError } from "../errors/codes.js";
import { parseTokensPage } from "./wire.js";

/** The RESPONSE_INVALID issue `run` throws; fails the test when it does not throw one. */
function issueOf(run: () => unknown): { path: string; message: string } {
  try {
    run();
  } catch (error) {
    if (isClientError(error, "RESPONSE_INVALID")) return error.details.issues![0]!;
    throw error;
  }
  throw new Error("expected RESPONSE_INVALID");
}

const wireToken = fc.record(
  {
    network_id: fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
    name: fc.string(),
    contract_address: fc.string(),
    symbol: fc.string(),
    icon_url: fc.string(),
    wrapped_token_address: fc.option(fc.string(), { nil: null }),
  },
  { requiredKeys: ["network_id", "name", "contract_address", "symbol", "icon_url"] },
);
const wirePage = fc
  .tuple(fc.array(wireToken, { maxLength: 8 }), fc.nat(1000), fc.nat(1000))
  .map(([data, offset, extra]) => ({
    data,
    pagination: { limit: 100, offset, total: offset + data.length + extra },
  }));

describe("parseTokensPage (the hot list, on the schema module)", () => {
  it("every valid page parses to the domain tokens; an empty or absent wrapped address is null", () => {
    fc.assert(
      fc.property(wirePage, (wire) => {
        expect(parseTokensPage(JSON.parse(JSON.stringify(wire)))).toEqual({
          items: wire.data.map((token) => ({
            networkId: token.network_id,
            name: token.name,
            contractAddress: token.contract_address,
            symbol: token.symbol,
            iconUrl: token.icon_url,
            wrappedTokenAddress: token.wrapped_token_address || null,
          })),
          limit: 100,
          offset: wire.pagination.offset,
          total: wire.pagination.total,
        });
      }),
    );
  });

  it("one corrupted field of one token is refused at `data.<index>.<field>`", () => {
    const fields = ["network_id", "name", "contract_address", "symbol", "icon_url", "wrapped_token_address"];
    const bad = fc.constantFrom<unknown>(1.5, true, {}, [], "1");
    fc.assert(
      fc.property(wirePage, fc.nat(), fc.constantFrom(...fields), bad, (wire, at, field, value) => {
        fc.pre(wire.data.length > 0);
        // a string is a valid value for every field but network_id; a number for none but network_id
        fc.pre(!(value === "1" && field !== "network_id"));
        const index = at % wire.data.length;
        const page = structuredClone(wire) as { data: Record<string, unknown>[] };
        page.data[index]![field] = value;
        expect(issueOf(() => parseTokensPage(page)).path).toBe(`data.${index}.${field}`);
      }),
    );
  });

  it("a missing or corrupted pagination number is refused at its path", () => {
    for (const key of ["limit", "offset", "total"]) {
      const page = { data: [], pagination: { limit: 1, offset: 0, total: 0 } as Record<string, unknown> };
      page.pagination[key] = -1;
      expect(issueOf(() => parseTokensPage(page))).toEqual({
        path: `pagination.${key}`,
        message: "expected at least 0",
      });
      delete page.pagination[key];
      expect(issueOf(() => parseTokensPage(page))).toEqual({ path: `pagination.${key}`, message: "missing" });
    }
  });

  it("a 100-token page in the spec's key order (the sandbox's) costs one own-key lookup per object", () => {
    const body = JSON.parse(JSON.stringify(tokensPageWire(new URLSearchParams("limit=100&offset=0"), 1000)));
    const hasOwn = vi.spyOn(Object, "hasOwn");
    try {
      expect(parseTokensPage(body).items).toHaveLength(100);
      // 100 tokens, the page and its pagination, where a lookup per key took 606
      expect(hasOwn).toHaveBeenCalledTimes(102);
    } finally {
      hasOwn.mockRestore();
    }
  });
});
