import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quoteId, quoteWire } from "../../test/fixtures.js";
import { rejection, testClient } from "../../test/helpers.js";
import { readLinearly } from "../../test/linearReads.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";
import type { GetBestQuoteParameters } from "./getBestQuote.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const params: GetBestQuoteParameters = {
  sourceChain: 1,
  sourceToken: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
  destChain: 5,
  destToken: "So11111111111111111111111111111111111111112",
  amount: "1.5",
  slippageBps: 50,
};

describe("getBestQuote", () => {
  it("POSTs the spec body (slippage as a string, swap_type standard) and parses the quote", async () => {
    server.handle(() => ({ body: quoteWire() }));
    const quote = await testClient(server).getBestQuote({
      ...params,
      retailUserId: "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee",
    });
    const [request] = server.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/affiliate/v1/quotes/best");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request?.body ?? "")).toEqual({
      source_chain: 1,
      source_token: params.sourceToken,
      dest_chain: 5,
      dest_token: params.destToken,
      amount: 1.5,
      slippage_bps: "50",
      swap_type: "standard",
      retail_user_id: "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee",
    });
    expect(quote).toEqual({
      id: quoteId,
      sourceChain: 1,
      sourceToken: params.sourceToken,
      destChain: 5,
      destToken: params.destToken,
      intermediateToken: null,
      intermediateTokenAmountMin: null,
      intermediateTokenAmountMax: null,
      intermediateTokenDecimals: null,
      sourceAmountLots: 1500000n,
      sourceAmountDecimals: 6,
      minDestAmountLots: 9950000000000000000000n,
      maxDestAmountLots: 10000000000000000000000n,
      destAmountDecimals: 9,
      slippageBps: 50,
      expiryMs: 4102444800000,
      swapType: "standard",
    });
  });

  it("writes a decimal string amount into the JSON text exactly, without float rounding", async () => {
    server.handle(() => ({ body: quoteWire() }));
    await testClient(server).getBestQuote({
      ...params,
      amount: "0012345678901234567890.123456789012345678900",
    });
    expect(server.requests[0]?.body).toContain('"amount":12345678901234567890.1234567890123456789,');
    await testClient(server).getBestQuote({ ...params, amount: "0.000000000000000001" });
    expect(server.requests.at(-1)?.body).toContain('"amount":0.000000000000000001,');
    await testClient(server).getBestQuote({ ...params, amount: 2.25 });
    expect(server.requests.at(-1)?.body).toContain('"amount":2.25,');
  });

  it("accepts slippage as number, bigint or string and always sends a string", async () => {
    server.handle(() => ({ body: quoteWire() }));
    for (const slippageBps of [0, 10000n, "75"] as const) {
      await testClient(server).getBestQuote({ ...params, slippageBps });
      expect(JSON.parse(server.requests.at(-1)?.body ?? "").slippage_bps).toBe(String(slippageBps));
    }
  });

  it("normalizes a long amount with linear patterns only (100 000 fractional zeros took 9 s through a regex `0+$`)", async () => {
    server.handle(() => ({ body: quoteWire() }));
    const zeros = "0".repeat(100_000);
    const { superLinear } = await readLinearly(async () => {
      await testClient(server).getBestQuote({ ...params, amount: `1.${zeros}1` });
      expect(server.requests.at(-1)?.body).toContain(`"amount":1.${zeros}1,`);
      await testClient(server).getBestQuote({ ...params, amount: `2.5${zeros}` });
      expect(server.requests.at(-1)?.body).toContain('"amount":2.5,');
      const zero = await rejection(testClient(server).getBestQuote({ ...params, amount: `0.${zeros}` }));
      expect(zero.details).toMatchObject({ field: "amount", reason: "must be greater than 0" });
    });
    expect(superLinear).toEqual([]);
  });

  it("sends slippage as its decimal integer text and refuses anything outside 0..10000 before sending", async () => {
    server.handle(() => ({ body: quoteWire() }));
    for (const [slippageBps, sent] of [
      ["075", "75"],
      [10000, "10000"],
      [0n, "0"],
    ] as const) {
      await testClient(server).getBestQuote({ ...params, slippageBps });
      expect(JSON.parse(server.requests.at(-1)?.body ?? "").slippage_bps).toBe(sent);
    }
    const sentBefore = server.requests.length;
    const refused = [
      -1,
      10001,
      1.5,
      Number.NaN,
      2 ** 53,
      -1n,
      10001n,
      "10001",
      "1e3",
      "-5",
      " 5",
      "",
      "9".repeat(400),
    ];
    for (const slippageBps of refused) {
      const error = await rejection(testClient(server).getBestQuote({ ...params, slippageBps }));
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.details).toMatchObject({
        field: "slippageBps",
        reason: "must be an integer from 0 to 10000",
      });
      // a string of a key's length (24 characters or more) is shown only as its type
      expect(error.details.value).toBe(
        typeof slippageBps === "string" && slippageBps.length >= 24 ? "string" : slippageBps,
      );
    }
    expect(server.requests.length).toBe(sentBefore);
  });

  it("parses intermediate routing and converts a seconds expiry to ms", async () => {
    server.handle(() => ({
      body: quoteWire({
        intermediate_token: "USDC",
        intermediate_token_amount_min: "100",
        intermediate_token_amount_max: 200,
        intermediate_token_decimals: 6,
        expiry: 1800000000,
        slippage_bps: 30,
      }),
    }));
    const quote = await testClient(server).getBestQuote(params);
    expect(quote.intermediateToken).toBe("USDC");
    expect(quote.intermediateTokenAmountMin).toBe(100n);
    expect(quote.intermediateTokenAmountMax).toBe(200n);
    expect(quote.intermediateTokenDecimals).toBe(6);
    expect(quote.expiryMs).toBe(1800000000000);
    expect(quote.slippageBps).toBe(30);
  });

  it("rejects lots that are not integers", async () => {
    for (const bad of ["1.5", "-3", "1e6", "", 1.5]) {
      server.handle(() => ({ body: quoteWire({ source_amount_lots: bad }) }));
      const error = await rejection(testClient(server).getBestQuote(params));
      expect(error.code).toBe("RESPONSE_INVALID");
      expect(error.details.issues).toEqual(
        expect.arrayContaining([expect.objectContaining({ path: "source_amount_lots" })]),
      );
    }
  });

  it("checks every input before any request, naming the field", async () => {
    server.handle(() => ({ body: quoteWire() }));
    const cases: Array<[Partial<GetBestQuoteParameters> & Record<string, unknown>, string]> = [
      [{ amount: "0" }, "amount"],
      [{ amount: "0.000" }, "amount"],
      [{ amount: "-1" }, "amount"],
      [{ amount: "1e5" }, "amount"],
      [{ amount: "1,5" }, "amount"],
      [{ amount: Number.POSITIVE_INFINITY }, "amount"],
      [{ amount: Number.NaN }, "amount"],
      [{ amount: 0 }, "amount"],
      [{ slippageBps: 10001 }, "slippageBps"],
      [{ slippageBps: -1 }, "slippageBps"],
      [{ slippageBps: 1.5 }, "slippageBps"],
      [{ slippageBps: "5.0" }, "slippageBps"],
      [{ slippageBps: 10001n }, "slippageBps"],
      [{ swapType: "" }, "swapType"],
      [{ swapType: "Standard!" }, "swapType"],
      [{ sourceChain: -1 }, "sourceChain"],
      [{ destChain: 1.5 }, "destChain"],
      [{ sourceToken: "" }, "sourceToken"],
      [{ destToken: "  " }, "destToken"],
      [{ retailUserId: "not-a-uuid" }, "retailUserId"],
    ];
    for (const [override, field] of cases) {
      const error = await rejection(
        testClient(server).getBestQuote({ ...params, ...override } as GetBestQuoteParameters),
      );
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.details.field).toBe(field);
    }
    expect(server.requests).toHaveLength(0);
  });
});
