import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { QUOTE_KEEP_AFTER_EXPIRY_MS } from "../src/resolver/startResolver.js";
import { createTestWallet, signTestApproval } from "./support/createTestLeg.js";
import { startTestSandbox, type TestSandbox } from "./support/harness.js";
import { ErrorSchema } from "./support/specSchemas.js";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t?.close());

/** Assert an error response: status, stable code and entity, in the design's body shape. */
function expectError(r: { status: number; body: unknown }, status: number, type: string, entity: string) {
  expect({ status: r.status, body: r.body }).toEqual({
    status,
    body: { code: status, message: expect.any(String), entity, type },
  });
  ErrorSchema.parse(r.body);
}

const QUOTES = "/affiliate/v1/quotes/best";

describe("quote errors", () => {
  test("malformed or non-object bodies are 400", async () => {
    expectError(await t.request("POST", QUOTES, "{not json"), 400, "MALFORMED_JSON", "Quote");
    expectError(await t.request("POST", QUOTES, "[1,2]"), 400, "INVALID_BODY", "Quote");
    expectError(await t.request("POST", QUOTES, ""), 400, "INVALID_BODY", "Quote");
  });

  test("missing and mistyped fields are 400", async () => {
    const usdc = await t.token(1, "USDC");
    const base = {
      source_chain: 1,
      source_token: usdc,
      dest_chain: 2,
      dest_token: await t.token(2, "USDC"),
      amount: 1,
      slippage_bps: "0",
      swap_type: "standard",
    };
    const { amount: _a, ...noAmount } = base;
    expectError(await t.request("POST", QUOTES, noAmount), 400, "MISSING_FIELD", "Quote");
    expectError(
      await t.request("POST", QUOTES, { ...base, source_chain: "1" }),
      400,
      "INVALID_FIELD",
      "Quote",
    );
    expectError(
      await t.request("POST", QUOTES, { ...base, source_chain: 1.5 }),
      400,
      "INVALID_FIELD",
      "Quote",
    );
    expectError(await t.request("POST", QUOTES, { ...base, amount: true }), 400, "INVALID_FIELD", "Quote");
    expectError(
      await t.request("POST", QUOTES, { ...base, retail_user_id: "user-1" }),
      400,
      "INVALID_FIELD",
      "Quote",
    );
    expectError(
      await t.request("POST", QUOTES, { ...base, swap_type: "fast" }),
      400,
      "UNSUPPORTED_SWAP_TYPE",
      "Quote",
    );
    expectError(
      await t.request("POST", QUOTES, { ...base, dest_chain: 1, dest_token: usdc }),
      400,
      "SAME_TOKEN",
      "Quote",
    );
  });

  test.each([
    ["0", "zero"],
    ["-1", "negative"],
    ["0.0000001", "more decimals than USDC's 6"],
    ["1e400", "absurdly large"],
  ])("amount %s (%s) is 400 INVALID_AMOUNT", async (amount) => {
    const body = `{"source_chain":1,"source_token":"${await t.token(1, "USDC")}","dest_chain":2,"dest_token":"${await t.token(2, "USDC")}","amount":${amount},"slippage_bps":"0","swap_type":"standard"}`;
    expectError(await t.request("POST", QUOTES, body), 400, "INVALID_AMOUNT", "Quote");
  });

  test.each([["10001"], ["1.5"], ["-1"], [""], [50]])("slippage_bps %j is 400", async (slippage) => {
    const r = await t.quote({ slippage_bps: slippage });
    expect(r.status).toBe(400);
    expect(r.body.entity).toBe("Quote");
  });

  test("slippage 0 and 10000 are the bounds and are accepted", async () => {
    expect((await t.quote({ slippage_bps: "0" })).body.min_dest_amount_lots).toBe("100000000");
    const all = await t.quote({ slippage_bps: "10000", amount: 1 });
    expect(all.status).toBe(422); // 100% slippage leaves a zero minimum
    expect(all.body.type).toBe("AMOUNT_TOO_SMALL");
  });

  test("unknown networks and tokens are 400 naming Network or Token", async () => {
    expectError(await t.quote({ source_chain: 99 }), 400, "UNKNOWN_NETWORK", "Network");
    expectError(
      await t.quote({ source_token: "0x0000000000000000000000000000000000000001" }),
      400,
      "UNKNOWN_TOKEN",
      "Token",
    );
    expectError(await t.quote({ dest_token: "nope" }), 400, "UNKNOWN_TOKEN", "Token");
  });

  test("business rules are 422: native source, too small, too large", async () => {
    expectError(
      await t.quote({ source_token: await t.token(1, "ETH") }),
      422,
      "TOKEN_MUST_BE_WRAPPED",
      "Token",
    );
    expectError(
      await t.quote({
        source_token: await t.token(1, "WETH"),
        dest_token: await t.token(5, "USDC"),
        amount: 1e-18,
      }),
      422,
      "AMOUNT_TOO_SMALL",
      "Quote",
    );
    expectError(await t.quote({ amount: 20_000_000 }), 422, "AMOUNT_TOO_LARGE", "Quote");
  });
});

describe("intent errors", () => {
  const intentBody = (quoteId: string, overrides: Record<string, unknown> = {}) => {
    const w = createTestWallet();
    return {
      quote_id: quoteId,
      refund_address: w.address,
      user_destination_address: w.address,
      user_source_address: w.address,
      user_source_public_key: w.publicKeyHex,
      ...overrides,
    };
  };

  test("quote ids: malformed 400, unknown 404", async () => {
    expectError(
      await t.request("POST", "/affiliate/v1/intents", intentBody("q-1")),
      400,
      "INVALID_FIELD",
      "Intent",
    );
    expectError(
      await t.request("POST", "/affiliate/v1/intents", intentBody(crypto.randomUUID())),
      404,
      "QUOTE_NOT_FOUND",
      "Quote",
    );
  });

  test("invalid addresses are 400", async () => {
    for (const field of ["refund_address", "user_destination_address", "user_source_address"]) {
      const q = await t.quote({});
      expectError(
        await t.request("POST", "/affiliate/v1/intents", intentBody(q.body.id, { [field]: "0x1234" })),
        400,
        "INVALID_ADDRESS",
        "Intent",
      );
    }
  });

  test("Bitcoin and Solana sources need a public key that matches the address", async () => {
    for (const [chain, token] of [
      [4, "btc"],
      [5, await t.token(5, "USDC")],
    ] as const) {
      const q = await t.quote({
        source_chain: chain,
        source_token: token,
        dest_chain: 1,
        dest_token: await t.token(1, "USDC"),
        amount: 0.5,
      });
      expect(q.status).toBe(200);
      expectError(
        await t.request(
          "POST",
          "/affiliate/v1/intents",
          intentBody(q.body.id, { user_source_public_key: undefined }),
        ),
        400,
        "PUBLIC_KEY_REQUIRED",
        "Intent",
      );
      expectError(
        await t.request(
          "POST",
          "/affiliate/v1/intents",
          intentBody(q.body.id, { user_source_public_key: "zz" }),
        ),
        400,
        "INVALID_PUBLIC_KEY",
        "Intent",
      );
      expectError(
        await t.request(
          "POST",
          "/affiliate/v1/intents",
          intentBody(q.body.id, { user_source_public_key: createTestWallet().publicKeyHex }),
        ),
        400,
        "PUBLIC_KEY_MISMATCH",
        "Intent",
      );
    }
  });

  test("a public key longer than any chain's (65 bytes) is 400 INVALID_PUBLIC_KEY, also where none is needed (EVM)", async () => {
    // EVM and Tron need no key and do not check it: whatever was sent was stored with the intent, up to the 1 MiB
    // body limit, and loaded with it by every approval and resolver pass
    for (const key of ["ab".repeat(66), "ab".repeat(400_000), `0x${"ab".repeat(66)}`]) {
      const q = await t.quote({});
      expectError(
        await t.request(
          "POST",
          "/affiliate/v1/intents",
          intentBody(q.body.id, { user_source_public_key: key }),
        ),
        400,
        "INVALID_PUBLIC_KEY",
        "Intent",
      );
    }
    for (const key of [`04${"ab".repeat(64)}`, `02${"ab".repeat(32)}`]) {
      const q = await t.quote({});
      const r = await t.request(
        "POST",
        "/affiliate/v1/intents",
        intentBody(q.body.id, { user_source_public_key: key }),
      );
      expect(r.status).toBe(200);
    }
  });

  test("a used quote is 422 QUOTE_ALREADY_USED; an expired one 422 QUOTE_EXPIRED", async () => {
    const q = await t.quote({});
    expect((await t.request("POST", "/affiliate/v1/intents", intentBody(q.body.id))).status).toBe(200);
    expectError(
      await t.request("POST", "/affiliate/v1/intents", intentBody(q.body.id)),
      422,
      "QUOTE_ALREADY_USED",
      "Quote",
    );
    const old = await t.quote({});
    await t.sandbox.advanceClock(31);
    expectError(
      await t.request("POST", "/affiliate/v1/intents", intentBody(old.body.id)),
      422,
      "QUOTE_EXPIRED",
      "Quote",
    );
  });
});

test("a quote expired long enough ago to be pruned is still 422 QUOTE_EXPIRED, saying when it expired; to another partner, and for a made-up id, 404", async () => {
  const own = await startTestSandbox();
  try {
    const q = await own.quote({});
    await own.sandbox.advanceClock(30 + QUOTE_KEEP_AFTER_EXPIRY_MS / 1000 + 60);
    await own.sandbox.runResolverOnce(); // prunes it
    const wallet = createTestWallet();
    const body = (quoteId: string) => ({
      quote_id: quoteId,
      refund_address: wallet.address,
      user_destination_address: createTestWallet().address,
      user_source_address: wallet.address,
    });
    const late = await own.request("POST", "/affiliate/v1/intents", body(q.body.id));
    expectError(late, 422, "QUOTE_EXPIRED", "Quote");
    expect(late.body.message).toBe(
      `The quote expired at ${new Date(q.body.expiry).toISOString()}; ask for a new one.`,
    );
    const other = await own.request("POST", "/affiliate/v1/intents", body(q.body.id), {
      "x-api-key": "another-partner",
    });
    expectError(other, 404, "QUOTE_NOT_FOUND", "Quote");
    const madeUp = await own.request("POST", "/affiliate/v1/intents", body(crypto.randomUUID()));
    expectError(madeUp, 404, "QUOTE_NOT_FOUND", "Quote");
  } finally {
    await own.close();
  }
});

describe("status and approval errors", () => {
  test("status: malformed id 400, unknown id 404", async () => {
    expectError(await t.request("GET", "/affiliate/v1/intents/abc/status"), 400, "INVALID_ID", "Intent");
    expectError(
      await t.request("GET", `/affiliate/v1/intents/${crypto.randomUUID()}/status`),
      404,
      "INTENT_NOT_FOUND",
      "Intent",
    );
  });

  test("approval bodies: unknown intent 404, bad or missing type 400, missing signed_data 400", async () => {
    const { intent, wallet } = await t.createIntent();
    const good = signTestApproval({ wallet, intent });
    const path = `/affiliate/v1/intents/${intent.intent_id}/approvals`;
    expectError(
      await t.request("POST", `/affiliate/v1/intents/${crypto.randomUUID()}/approvals`, good),
      404,
      "INTENT_NOT_FOUND",
      "Intent",
    );
    expectError(
      await t.request("POST", path, { ...good, type: "eip712" }),
      400,
      "INVALID_APPROVAL_TYPE",
      "Approval",
    );
    expectError(
      await t.request("POST", path, { signed_data: good.signed_data }),
      400,
      "MISSING_FIELD",
      "Approval",
    );
    expectError(await t.request("POST", path, { type: "permit2" }), 400, "MISSING_FIELD", "Approval");
    expect((await t.status(intent.intent_id)).status).toBe("Initiated");
  });

  test("a mechanism mismatch, a tampered signature or a short balance is 422 and changes nothing", async () => {
    const { intent, wallet } = await t.createIntent();
    const path = `/affiliate/v1/intents/${intent.intent_id}/approvals`;
    const good = signTestApproval({ wallet, intent });
    expectError(
      await t.request("POST", path, { ...good, type: "cosign" }),
      422,
      "APPROVAL_TYPE_MISMATCH",
      "Approval",
    );
    const sig = good.signed_data as string;
    const tampered = `${sig.slice(0, 10)}${sig[10] === "0" ? "1" : "0"}${sig.slice(11)}`;
    expectError(
      await t.request("POST", path, { ...good, signed_data: tampered }),
      422,
      "SIGNATURE_INVALID",
      "Approval",
    );
    const other = createTestWallet();
    expectError(
      await t.request("POST", path, signTestApproval({ wallet: other, intent })),
      422,
      "SIGNATURE_INVALID",
      "Approval",
    );
    expect((await t.status(intent.intent_id)).status).toBe("Initiated");

    const poor = await t.createIntent({ fund: false });
    expectError(await t.approve(poor.intent, poor.wallet), 422, "INSUFFICIENT_BALANCE", "Approval");
    expect((await t.status(poor.intent.intent_id)).status).toBe("Initiated");
  });

  test("a second approval is 422 INVALID_STATE", async () => {
    const { intent, wallet } = await t.createIntent();
    expect((await t.approve(intent, wallet)).status).toBe(200);
    expectError(await t.approve(intent, wallet), 422, "INVALID_STATE", "Intent");
  });

  test("an approval after the deadline is 422 INTENT_EXPIRED", async () => {
    const { intent, wallet } = await t.createIntent();
    await t.sandbox.advanceClock(1801);
    expectError(await t.approve(intent, wallet), 422, "INTENT_EXPIRED", "Intent");
  });

  test("`approval_type` and the `htlc` alias are accepted", async () => {
    const evm = await t.createIntent();
    const body = signTestApproval({ wallet: evm.wallet, intent: evm.intent });
    const r = await t.request("POST", `/affiliate/v1/intents/${evm.intent.intent_id}/approvals`, {
      approval_type: body.type,
      signed_data: body.signed_data,
    });
    expect(r.status).toBe(200);
    const btc = await t.createIntent({ sourceChain: 4, sourceSymbol: "BTC", amount: 0.01 });
    const signed = signTestApproval({ wallet: btc.wallet, intent: btc.intent });
    const h = await t.request("POST", `/affiliate/v1/intents/${btc.intent.intent_id}/approvals`, {
      ...signed,
      type: "htlc",
    });
    expect(h.status).toBe(200);
    expect(h.body.status).toBe("ApprovalAdded");
  });
});

describe("listing errors", () => {
  test.each([["limit=0"], ["limit=101"], ["limit=-1"], ["limit=ten"], ["offset=-1"], ["offset=1.5"]])(
    "tokens?%s is 400 INVALID_PAGINATION",
    async (q) => {
      expectError(await t.request("GET", `/affiliate/v1/tokens?${q}`), 400, "INVALID_PAGINATION", "Token");
    },
  );

  test("limit=100 is the maximum and is accepted", async () => {
    expect((await t.request("GET", "/affiliate/v1/tokens?limit=100")).status).toBe(200);
  });

  test("tokens of an unknown network is 400", async () => {
    expectError(
      await t.request("GET", "/affiliate/v1/tokens?network_id=99"),
      400,
      "UNKNOWN_NETWORK",
      "Network",
    );
    expectError(await t.request("GET", "/affiliate/v1/tokens?network_id=x"), 400, "INVALID_FIELD", "Network");
  });

  test("history without wallet or retail_id is 400; bad active or pagination is 400", async () => {
    expectError(await t.request("GET", "/affiliate/v1/swaps/history"), 400, "MISSING_FILTER", "Swap");
    expectError(
      await t.request("GET", "/affiliate/v1/swaps/history?active=true"),
      400,
      "MISSING_FILTER",
      "Swap",
    );
    expectError(
      await t.request("GET", "/affiliate/v1/swaps/history?retail_id=a&active=maybe"),
      400,
      "INVALID_FIELD",
      "Swap",
    );
    expectError(
      await t.request("GET", "/affiliate/v1/swaps/history?wallet=a&limit=500"),
      400,
      "INVALID_PAGINATION",
      "Swap",
    );
  });

  test("unknown routes are 404 in the error shape", async () => {
    expectError(await t.request("GET", "/affiliate/v1/nothing"), 404, "ROUTE_NOT_FOUND", "Other");
    expectError(await t.request("GET", "/nothing"), 404, "ROUTE_NOT_FOUND", "Other");
  });
});

describe("authentication and rate limits", () => {
  test("a request without X-Api-Key is 401; any key is accepted by default", async () => {
    const r = await fetch(`${t.sandbox.url}/affiliate/v1/networks`);
    expect(r.status).toBe(401);
    expect(await r.json()).toMatchObject({ code: 401, entity: "Other", type: "MISSING_API_KEY" });
    expect(
      (await t.request("GET", "/affiliate/v1/networks", undefined, { "x-api-key": "whatever" })).status,
    ).toBe(200);
  });

  test("the OpenAPI document is public", async () => {
    const r = await fetch(`${t.sandbox.url}/affiliate/v1/openapi.json`);
    expect(r.status).toBe(200);
    expect(((await r.json()) as { openapi: string }).openapi).toBe("3.1.0");
  });

  test("a configured key list is enforced", async () => {
    const s = await startTestSandbox({ apiKeys: ["k1", "k2"] });
    try {
      expectError(
        await s.request("GET", "/affiliate/v1/networks", undefined, { "x-api-key": "k3" }),
        401,
        "INVALID_API_KEY",
        "Other",
      );
      expect(
        (await s.request("GET", "/affiliate/v1/networks", undefined, { "x-api-key": "k2" })).status,
      ).toBe(200);
    } finally {
      await s.close();
    }
  });

  test("with a key list, a partner over its rate limit gets 429 with Retry-After; other partners are unaffected", async () => {
    // (while any key is accepted the limit counts per client address instead: see partners.test.ts)
    const s = await startTestSandbox({
      apiKeys: ["busy", "calm"],
      rateLimit: { requests: 3, windowSecs: 60 },
    });
    try {
      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof s.request>> | undefined;
      for (let i = 0; i < 4; i++) {
        last = await s.request("GET", "/affiliate/v1/networks", undefined, { "x-api-key": "busy" });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expectError(last!, 429, "RATE_LIMITED", "Other");
      const retryAfter = Number(last!.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(
        (await s.request("GET", "/affiliate/v1/networks", undefined, { "x-api-key": "calm" })).status,
      ).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe("dev endpoints", () => {
  test("are 404 unless the sandbox runs with dev", async () => {
    const s = await startTestSandbox({ dev: false });
    try {
      for (const [method, path] of [
        ["GET", "/sandbox/chains"],
        ["POST", "/sandbox/faucet"],
        ["POST", "/sandbox/clock"],
        ["POST", "/sandbox/faults"],
        ["GET", "/sandbox/balance"],
      ] as const) {
        expect((await s.request(method, path, method === "POST" ? {} : undefined)).status).toBe(404);
      }
    } finally {
      await s.close();
    }
  });

  test("faucet and balance refuse bad input", async () => {
    const w = createTestWallet();
    const usdc = await t.token(1, "USDC");
    expect(
      (
        await t.request("POST", "/sandbox/faucet", {
          network_id: 9,
          address: w.address,
          token: usdc,
          amount: 1,
        })
      ).status,
    ).toBe(400);
    expect(
      (await t.request("POST", "/sandbox/faucet", { network_id: 1, address: "x", token: usdc, amount: 1 }))
        .status,
    ).toBe(400);
    expect(
      (
        await t.request("POST", "/sandbox/faucet", {
          network_id: 1,
          address: w.address,
          token: usdc,
          amount: 0.0000001,
        })
      ).status,
    ).toBe(400);
    expect((await t.request("GET", `/sandbox/balance?network_id=1&address=${w.address}`)).status).toBe(400);
    expect((await t.request("POST", "/sandbox/clock", { advance_secs: -5 })).status).toBe(400);
    expect((await t.request("POST", "/sandbox/faults", { melt_down: true })).status).toBe(400);
  });

  test("faucet funds in human units, by address or symbol; balance reads it back", async () => {
    const w = createTestWallet();
    const f = await t.request("POST", "/sandbox/faucet", {
      network_id: 1,
      address: w.address,
      token: "USDC",
      amount: 12.5,
    });
    expect(f.status).toBe(200);
    expect(f.body.amount_lots).toBe("12500000");
    const b = await t.request(
      "GET",
      `/sandbox/balance?network_id=1&address=${w.address}&token=${await t.token(1, "USDC")}`,
    );
    expect(b.body).toMatchObject({ balance_lots: "12500000", balance: "12.5", decimals: 6, symbol: "USDC" });
  });

  test("chains lists each network's type, mechanism and leg info", async () => {
    const r = await t.request("GET", "/sandbox/chains");
    expect(
      r.body.map((c: { network_id: number; type: string; approval_mechanism: string }) => [
        c.network_id,
        c.type,
        c.approval_mechanism,
      ]),
    ).toEqual([
      [1, "EVM", "permit2"],
      [2, "EVM", "permit2"],
      [3, "TRON", "permit2"],
      [4, "BITCOIN", "htlc"],
      [5, "SOLANA", "cosign"],
    ]);
    expect(r.body[0].info.engine).toBe("test-leg");
  });
});

describe("an internal error is a 500 INTERNAL, logged as one, whatever the request carried", () => {
  const logs: string[] = [];
  let s: TestSandbox;
  beforeAll(async () => {
    s = await startTestSandbox({ log: (message) => logs.push(message) });
  });
  afterAll(() => s?.close());

  /**
   * The check for a client that went away read the request's abort signal and `incoming.destroyed`, which the HTTP
   * adapter and node set for every request whose body was read to its end: an engine failure on any POST with a body
   * was answered 400 CLIENT_ABORTED ("The client went away.") to the client still waiting, and logged only as
   * "client went away" (seen with a faucet of 2^256-1 wei on a real EVM leg).
   */
  test.each([
    ["POST /sandbox/faucet", "faucet"],
    ["POST /affiliate/v1/intents/{id}/approvals", "verifyApproval"],
    ["GET /sandbox/balance", "balanceOf"],
  ] as const)("%s when the leg throws a plain Error", async (_route, method) => {
    logs.length = 0;
    const { intent, wallet } = await s.createIntent({ amount: 5 });
    const leg = s.legs.get(1)!;
    const original = leg[method];
    try {
      (leg as unknown as Record<string, unknown>)[method] = async () => {
        throw new Error("engine exploded");
      };
      const r =
        method === "faucet"
          ? await s.request("POST", "/sandbox/faucet", {
              network_id: 1,
              address: wallet.address,
              token: "USDC",
              amount: 1,
            })
          : method === "verifyApproval"
            ? await s.approve(intent, wallet)
            : await s.request("GET", `/sandbox/balance?network_id=1&address=${wallet.address}&token=USDC`);
      expectError(r, 500, "INTERNAL", "Other");
      expect(logs.filter((line) => line.includes("engine exploded"))).toEqual([
        expect.stringMatching(/^internal error on (POST|GET) \/.*: engine exploded$/),
      ]);
      expect(logs.filter((line) => line.includes("client went away"))).toEqual([]);
    } finally {
      (leg as unknown as Record<string, unknown>)[method] = original;
    }
  });
});
