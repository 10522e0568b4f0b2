import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestSandbox, type TestSandbox } from "./support/harness.js";
import {
  ErrorSchema,
  HistoryResponseSchema,
  IntentCreationSchema,
  NetworkSchema,
  QuoteSchema,
  SwapStatusSchema,
  TokensResponseSchema,
} from "./support/specSchemas.js";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t?.close());

describe("GET /networks", () => {
  test("lists the five sandbox networks of apps/docs/pages/reference/approvals.md in the spec's shape", async () => {
    const r = await t.request("GET", "/affiliate/v1/networks");
    expect(r.status).toBe(200);
    const networks = NetworkSchema.array().parse(r.body);
    expect(networks.map((n) => [n.id, n.name, n.type, n.supports_custom_tokens])).toEqual([
      [1, "Sandbox Ethereum", "EVM", false],
      [2, "Sandbox L2", "EVM", true],
      [3, "Sandbox Tron", "TRON", false],
      [4, "Sandbox Bitcoin", "BITCOIN", false],
      [5, "Sandbox Solana", "SOLANA", false],
    ]);
  });
});

describe("GET /tokens", () => {
  test("paginates every leg's tokens with limit, offset, pages and total", async () => {
    const all = TokensResponseSchema.parse((await t.request("GET", "/affiliate/v1/tokens?limit=100")).body);
    // test legs: 4 EVM tokens on each of 2 networks, 3 Tron, 1 Bitcoin, 3 Solana
    expect(all.pagination).toEqual({ limit: 100, offset: 0, pages: 1, total: 15 });
    const page = TokensResponseSchema.parse(
      (await t.request("GET", "/affiliate/v1/tokens?limit=4&offset=12")).body,
    );
    expect(page.pagination).toEqual({ limit: 4, offset: 12, pages: 4, total: 15 });
    expect(page.data).toEqual(all.data.slice(12, 16));
    const byDefault = TokensResponseSchema.parse((await t.request("GET", "/affiliate/v1/tokens")).body);
    expect(byDefault.pagination.limit).toBe(20);
  });

  test("filters by network and searches symbol, name and contract address case-insensitively", async () => {
    const tron = TokensResponseSchema.parse(
      (await t.request("GET", "/affiliate/v1/tokens?network_id=3")).body,
    );
    expect(tron.data.map((x) => x.symbol)).toEqual(["TRX", "WTRX", "USDT"]);
    expect(tron.data.every((x) => x.network_id === 3)).toBe(true);
    const bySymbol = TokensResponseSchema.parse((await t.request("GET", "/affiliate/v1/tokens?q=usdc")).body);
    expect(bySymbol.data.map((x) => `${x.network_id}:${x.symbol}`)).toEqual(["1:USDC", "2:USDC", "5:USDC"]);
    const byName = TokensResponseSchema.parse(
      (await t.request("GET", "/affiliate/v1/tokens?q=wrapped%20ETHER")).body,
    );
    expect(byName.data.map((x) => x.symbol)).toEqual(["WETH", "WETH"]);
    const usdt = tron.data.find((x) => x.symbol === "USDT")!;
    const byAddress = TokensResponseSchema.parse(
      (await t.request("GET", `/affiliate/v1/tokens?q=${usdt.contract_address.toUpperCase().slice(4, 20)}`))
        .body,
    );
    expect(byAddress.data).toContainEqual(usdt);
  });

  test("native tokens name their wrapped token", async () => {
    const eth = TokensResponseSchema.parse(
      (await t.request("GET", "/affiliate/v1/tokens?network_id=1&q=eth")).body,
    );
    const native = eth.data.find((x) => x.symbol === "ETH")!;
    const weth = eth.data.find((x) => x.symbol === "WETH")!;
    expect(native.wrapped_token_address).toBe(weth.contract_address);
    expect(weth.wrapped_token_address).toBeNull();
  });
});

describe("POST /quotes/best", () => {
  test("a stable-to-stable quote is direct: intermediate fields are null; lots and slippage are strings, expiry is ms", async () => {
    const before = Date.now();
    const r = await t.quote({ amount: 100, slippage_bps: "50" });
    expect(r.status).toBe(200);
    const q = QuoteSchema.parse(r.body);
    expect(q).toMatchObject({
      source_chain: 1,
      dest_chain: 5,
      source_amount_lots: "100000000",
      source_amount_decimals: 6,
      max_dest_amount_lots: "100000000",
      min_dest_amount_lots: "99500000", // 100 USDC * (10000 - 50) / 10000
      dest_amount_decimals: 6,
      slippage_bps: "50",
      intermediate_token: null,
      intermediate_token_amount_min: null,
      intermediate_token_amount_max: null,
      intermediate_token_decimals: null,
      swap_type: "standard",
    });
    expect(q.expiry).toBeGreaterThanOrEqual(before + 30_000);
    expect(q.expiry).toBeLessThanOrEqual(Date.now() + 30_000);
  });

  test("a volatile token routes through the destination network's USDC", async () => {
    const r = await t.quote({
      source_token: await t.token(1, "WETH"),
      dest_token: await t.token(5, "USDC"),
      amount: 1.5,
      slippage_bps: "100",
    });
    const q = QuoteSchema.parse(r.body);
    // 1.5 WETH at 3000 USD = 4500 USDC
    expect(q.source_amount_lots).toBe("1500000000000000000");
    expect(q.max_dest_amount_lots).toBe("4500000000");
    expect(q.min_dest_amount_lots).toBe("4455000000");
    expect(q.intermediate_token).toBe(await t.token(5, "USDC"));
    expect(q.intermediate_token_decimals).toBe(6);
    expect(q.intermediate_token_amount_max).toBe("4500000000");
    expect(q.intermediate_token_amount_min).toBe("4455000000");
  });

  test("BTC to SOL at 60000 and 150 USD: 0.01 BTC buys 4 SOL via Solana USDC", async () => {
    const q = QuoteSchema.parse(
      (
        await t.quote({
          source_chain: 4,
          source_token: "btc",
          dest_chain: 5,
          dest_token: await t.token(5, "wSOL"),
          amount: 0.01,
          slippage_bps: "0",
        })
      ).body,
    );
    expect(q.source_amount_lots).toBe("1000000");
    expect(q.max_dest_amount_lots).toBe("4000000000");
    expect(q.min_dest_amount_lots).toBe("4000000000");
    expect(q.intermediate_token_amount_max).toBe("600000000");
  });

  test("a volatile source with no USDC on the destination routes through the source network's USDC", async () => {
    const q = QuoteSchema.parse(
      (
        await t.quote({
          source_chain: 1,
          source_token: await t.token(1, "WETH"),
          dest_chain: 3,
          dest_token: await t.token(3, "USDT"),
          amount: 0.001,
        })
      ).body,
    );
    expect(q.intermediate_token).toBe(await t.token(1, "USDC"));
    expect(q.max_dest_amount_lots).toBe("3000000");
  });

  test("amount is read exactly from the JSON number text (no float rounding)", async () => {
    const body = `{"source_chain":1,"source_token":"${await t.token(1, "WETH")}","dest_chain":2,"dest_token":"${await t.token(2, "WETH")}","amount":0.123456789012345678,"slippage_bps":"0","swap_type":"standard"}`;
    const r = await t.request("POST", "/affiliate/v1/quotes/best", body);
    expect(r.status).toBe(200);
    expect(r.body.source_amount_lots).toBe("123456789012345678");
    // routed through USDC (6 decimals): 370.370367036... USDC rounds down to 370.370367, which buys 0.123456789 WETH
    expect(r.body.intermediate_token_amount_max).toBe("370370367");
    expect(r.body.max_dest_amount_lots).toBe("123456789000000000");
    const exp = body.replace("0.123456789012345678", "1.5e-3");
    expect((await t.request("POST", "/affiliate/v1/quotes/best", exp)).body.source_amount_lots).toBe(
      "1500000000000000",
    );
  });

  test("--quote-ttl sets the lifetime", async () => {
    const other = await startTestSandbox({ quoteTtlSecs: 5 });
    try {
      const before = Date.now();
      const q = QuoteSchema.parse((await other.quote({})).body);
      expect(q.expiry - before).toBeGreaterThanOrEqual(5000);
      expect(q.expiry - Date.now()).toBeLessThanOrEqual(5000);
    } finally {
      await other.close();
    }
  });
});

describe("POST /intents and the approval mechanisms", () => {
  test.each([
    [1, "USDC", "permit2"],
    [4, "BTC", "htlc"],
    [5, "USDC", "cosign"],
  ])(
    "from network %i (%s) the intent uses %s with its params_to_sign shape",
    async (sourceChain, symbol, mechanism) => {
      const destChain = sourceChain === 5 ? 1 : 5;
      const { intent } = await t.createIntent({
        sourceChain,
        sourceSymbol: symbol,
        destChain,
        amount: symbol === "BTC" ? 0.01 : 10,
      });
      const parsed = IntentCreationSchema.parse(intent);
      expect(parsed.approval_mechanism).toBe(mechanism);
      const nowSecs = Date.now() / 1000;
      expect(parsed.deadline_secs).toBeGreaterThan(nowSecs + 1700);
      expect(parsed.deadline_secs).toBeLessThan(nowSecs + 1900);
    },
  );

  test("the secret never appears in any response; secret_hash is a 32-byte hash", async () => {
    const { intent, wallet } = await t.createIntent();
    const approval = await t.approve(intent, wallet);
    const final = await t.settle(intent.intent_id, ["Fulfilled"]);
    expect(final.swap_metadata.swap_tx).not.toBeNull();
    const everything = JSON.stringify([intent, approval.body, final]);
    expect(everything).not.toMatch(/"secret"\s*:/);
    expect(intent.secret_hash).toMatch(/^0x[0-9a-f]{64}$/);
  });
});

describe("status, approvals and history", () => {
  test("status and approval answers are swap status records; stages not reached are null", async () => {
    const { intent, wallet } = await t.createIntent();
    const initiated = SwapStatusSchema.parse(await t.status(intent.intent_id));
    expect(initiated.status).toBe("Initiated");
    expect(initiated.swap_metadata).toMatchObject({
      user_deposit_tx: null,
      fulfill_tx: null,
      swap_tx: null,
      user_deposited_at: null,
      kyc_requested_at: null,
      fulfilled_at: null,
      swapped_at: null,
      refunded_at: null,
    });
    const approved = await t.approve(intent, wallet);
    expect(approved.status).toBe(200);
    expect(SwapStatusSchema.parse(approved.body).status).toBe("ApprovalAdded");
    const done = SwapStatusSchema.parse(await t.settle(intent.intent_id, ["Fulfilled"]));
    expect(done.status).toBe("Fulfilled");
    expect(done.swap_metadata.user_deposit_tx).toMatch(/^0x/);
    expect(done.swap_metadata.fulfill_tx).toMatch(/^0x/);
    expect(done.swap_metadata.user_deposited_at).not.toBeNull();
    expect(done.swap_metadata.fulfilled_at).not.toBeNull();
  });

  test("history by wallet (repeated) and by retail_id, with active=true returning only non-terminal swaps", async () => {
    const retail = crypto.randomUUID();
    const a = await t.createIntent();
    const b = await t.createIntent();
    await t.approve(a.intent, a.wallet);
    await t.settle(a.intent.intent_id, ["Fulfilled"]);
    const both = `wallet=${a.wallet.address}&wallet=${b.recipient.address.toUpperCase().replace("0X", "0x")}`;
    const all = HistoryResponseSchema.parse(
      (await t.request("GET", `/affiliate/v1/swaps/history?${both}`)).body,
    );
    expect(all.total).toBe(2);
    expect(all.items.map((i) => i.intent_id).sort()).toEqual([a.intent.intent_id, b.intent.intent_id].sort());
    expect(all.items.every((i) => i.kyc_link === null)).toBe(true);
    const active = HistoryResponseSchema.parse(
      (await t.request("GET", `/affiliate/v1/swaps/history?${both}&active=true`)).body,
    );
    expect(active.items.map((i) => [i.intent_id, i.status])).toEqual([[b.intent.intent_id, "Initiated"]]);

    const q = await t.quote({ retail_user_id: retail });
    const w = (await import("./support/createTestLeg.js")).createTestWallet();
    const created = await t.request("POST", "/affiliate/v1/intents", {
      quote_id: q.body.id,
      refund_address: w.address,
      user_destination_address: w.address,
      user_source_address: w.address,
    });
    expect(created.status).toBe(200);
    const byRetail = HistoryResponseSchema.parse(
      (await t.request("GET", `/affiliate/v1/swaps/history?retail_id=${retail}`)).body,
    );
    expect(byRetail.items.map((i) => i.intent_id)).toEqual([created.body.intent_id]);
    expect(byRetail).toMatchObject({ limit: 20, offset: 0, total: 1 });
  });

  test("history paginates newest first", async () => {
    const retail = crypto.randomUUID();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const q = await t.quote({ retail_user_id: retail });
      const w = (await import("./support/createTestLeg.js")).createTestWallet();
      const r = await t.request("POST", "/affiliate/v1/intents", {
        quote_id: q.body.id,
        refund_address: w.address,
        user_destination_address: w.address,
        user_source_address: w.address,
      });
      ids.push(r.body.intent_id);
    }
    const page = HistoryResponseSchema.parse(
      (await t.request("GET", `/affiliate/v1/swaps/history?retail_id=${retail}&limit=2&offset=1`)).body,
    );
    expect(page).toMatchObject({ limit: 2, offset: 1, total: 3 });
    expect(page.items.map((i) => i.intent_id)).toEqual([ids[1], ids[0]]);
  });

  test("error bodies have the design's shape", async () => {
    const r = await t.request("GET", `/affiliate/v1/intents/${crypto.randomUUID()}/status`);
    expect(r.status).toBe(404);
    expect(ErrorSchema.parse(r.body)).toEqual({
      code: 404,
      message: expect.any(String),
      entity: "Intent",
      type: "INTENT_NOT_FOUND",
    });
  });
});
