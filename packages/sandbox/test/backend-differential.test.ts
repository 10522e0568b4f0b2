import { afterAll, beforeAll, expect, test } from "vitest";
import { createTestWallet, signTestApproval, type TestWallet } from "./support/createTestLeg.js";
import { startTestSandbox, type TestSandbox, type Wire } from "./support/harness.js";
import { startPostgres, type TestPostgres } from "./support/startPostgres.js";

// The same request sequence on PGlite and on a PostgreSQL server gives the same answers: amounts up to 2^256-1
// lots, jsonb fields, timestamps, statuses after the resolver ran, and every page of the history (order, totals,
// the active filter). Ids, hashes and keys differ by nature (random per database): they are replaced by the order
// in which each first appears, so two transcripts agree only if they name the same things in the same places.

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
const RETAIL = ["0c0ffee0-0000-4000-8000-000000000000", "0c0ffee0-0000-4000-8000-000000000001"];
let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(() => server?.stop());

/** Replace UUIDs and long hex strings by `uuid#n` / `hex#n` in first-seen order (the same walk on both sides). */
function normalize(value: unknown): unknown {
  const seen = new Map<string, string>();
  const name = (kind: string, text: string) => {
    if (!seen.has(text)) seen.set(text, `${kind}#${seen.size}`);
    return seen.get(text)!;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") {
      if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v)) return name("uuid", v);
      if (/^(0x)?[0-9a-fA-F]{32,}$/.test(v)) return name("hex", v.toLowerCase());
      // A base64 or longer opaque text holding either (test-leg PSBTs and transactions): named as a whole.
      if (/^[A-Za-z0-9+/=]{40,}$/.test(v)) return name("blob", v);
      return v;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value);
}

/** One request sequence; returns everything it was answered, in order. */
async function transcript(t: TestSandbox, wallet: TestWallet, recipient: TestWallet): Promise<Wire[]> {
  const out: Wire[] = [];
  const note = (label: string, r: { status: number; body: Wire }) => {
    out.push({ label, status: r.status, body: r.body });
    return r;
  };
  const usdc1 = await t.token(1, "USDC");
  const usdc5 = await t.token(5, "USDC");
  const max = 2n ** 256n - 1n;
  const asUsdc = (lots: bigint) => `${lots / 1_000_000n}.${(lots % 1_000_000n).toString().padStart(6, "0")}`;
  // Fund the wallet with 2^256-1 lots (the faucet takes human units), so even the largest quote can be approved.
  note(
    "faucet",
    await t.request("POST", "/sandbox/faucet", {
      network_id: 1,
      address: wallet.address,
      token: usdc1,
      amount: asUsdc(max - 10n ** 12n),
    }),
  );
  // Amounts as raw JSON number text: the smallest lot, ordinary ones, an exponent, 2^256-1 lots, one lot above.
  const amounts = [
    "0.000001",
    "1",
    "123456.789",
    "1.5e3",
    asUsdc(max - 10n ** 12n),
    asUsdc(max),
    asUsdc(max + 1n),
  ];
  const intents: Wire[] = [];
  for (const amount of amounts) {
    const body = `{"source_chain":1,"source_token":"${usdc1}","dest_chain":5,"dest_token":"${usdc5}","amount":${amount},"slippage_bps":"37","swap_type":"standard","retail_user_id":"${RETAIL[amount.length % 2]}"}`;
    const quote = note(`quote ${amount}`, await t.request("POST", "/affiliate/v1/quotes/best", body));
    if (quote.status !== 200) continue;
    const intent = note(
      `intent ${amount}`,
      await t.request("POST", "/affiliate/v1/intents", {
        quote_id: quote.body.id,
        refund_address: wallet.address,
        user_source_address: wallet.address,
        user_source_public_key: wallet.publicKeyHex,
        user_destination_address: recipient.address,
      }),
    );
    if (intent.status === 200) intents.push(intent.body);
  }
  // Approve all but the last two; the resolver runs; then the clock passes every deadline and it runs again.
  for (const [i, intent] of intents.slice(0, -2).entries())
    note(
      `approve ${i}`,
      await t.request(
        "POST",
        `/affiliate/v1/intents/${intent.intent_id}/approvals`,
        signTestApproval({ wallet, intent }),
      ),
    );
  for (let i = 0; i < 6; i++) await t.sandbox.runResolverOnce();
  const snapshot = async (label: string) => {
    for (const intent of intents) {
      note(`${label} status`, await t.request("GET", `/affiliate/v1/intents/${intent.intent_id}/status`));
      note(`${label} dev`, await t.request("GET", `/sandbox/intents/${intent.intent_id}`));
    }
    for (const query of [
      `wallet=${wallet.address}`,
      `wallet=${wallet.address.toUpperCase().replace("0X", "0x")}&active=true`,
      `wallet=${recipient.address}&retail_id=${RETAIL[1]}`,
      `retail_id=${RETAIL[0]}`,
    ])
      for (const limit of [2, 100])
        for (const offset of [0, 1, 50])
          note(
            `${label} history ${query} ${limit} ${offset}`,
            await t.request("GET", `/affiliate/v1/swaps/history?${query}&limit=${limit}&offset=${offset}`),
          );
  };
  await snapshot("resolved");
  note("clock", await t.request("POST", "/sandbox/clock", { advance_secs: 7_200 }));
  for (let i = 0; i < 3; i++) await t.sandbox.runResolverOnce();
  await snapshot("after the deadlines");
  return out;
}

test("PGlite and a PostgreSQL server answer the same request sequence the same way", async () => {
  const wallet = createTestWallet();
  const recipient = createTestWallet();
  const options = { clock: { nowMs: () => T0 }, maxQuoteUsd: 10n ** 90n, quoteTtlSecs: 600 };
  const pglite = await startTestSandbox(options, { inventoryLots: 2n ** 256n });
  const onServer = await startTestSandbox(
    { ...options, databaseUrl: await server.createDatabase("differential") },
    { inventoryLots: 2n ** 256n },
  );
  try {
    const a = await transcript(pglite, wallet, recipient);
    const b = await transcript(onServer, wallet, recipient);
    expect(b.length).toBe(a.length);
    expect(normalize(b)).toEqual(normalize(a));
    // The sequence reached what it is about: 2^256-1 lots stored and read back, one lot more refused, every
    // outcome the resolver gives (Fulfilled, Declined or Refunded for the amounts past its means, Expired).
    const text = JSON.stringify(a);
    expect(text).toContain(`"source_amount_lots":"${2n ** 256n - 1n}"`);
    expect(
      a.find((e: Wire) =>
        e.label.startsWith(
          `quote ${"115792089237316195423570985008687907853269984665640564039457584007913129.639936"}`,
        ),
      )?.status,
    ).toBe(400);
    const pages = a.filter((e: Wire) => e.label.includes("history") && e.body.items?.length > 1);
    expect(pages.length).toBeGreaterThan(10); // pagination compared on pages that hold several items
    const statuses = new Set(
      a.filter((e: Wire) => e.label === "after the deadlines status").map((e: Wire) => e.body.status),
    );
    expect([...statuses].sort()).toEqual(expect.arrayContaining(["Expired", "Fulfilled"]));
  } finally {
    await Promise.all([pglite.close(), onServer.close()]);
  }
}, 120_000);

// On the server, where reads run on their own connections beside the writer (PGlite runs every statement in turn;
// the same single statement serves both).
test("a history answer's total and its page are one snapshot, while intents are created beside it", async () => {
  const t = await startTestSandbox({ databaseUrl: await server.createDatabase("history_snapshot") });
  try {
    const wallet = createTestWallet();
    const recipient = createTestWallet();
    const quotes: string[] = [];
    for (let i = 0; i < 40; i++) quotes.push((await t.quote({ amount: 1 + i })).body.id);
    const answers: Wire[] = [];
    let creating = true;
    const create = (async () => {
      for (const quoteId of quotes)
        await t.request("POST", "/affiliate/v1/intents", {
          quote_id: quoteId,
          refund_address: wallet.address,
          user_source_address: wallet.address,
          user_source_public_key: wallet.publicKeyHex,
          user_destination_address: recipient.address,
        });
      creating = false;
    })();
    const read = async () => {
      while (creating)
        answers.push(
          (await t.request("GET", `/affiliate/v1/swaps/history?wallet=${wallet.address}&limit=100`)).body,
        );
    };
    await Promise.all([create, read(), read()]);
    // Fewer than 100 intents: the first page holds all of them, so its length is the total.
    const torn = answers.filter((a) => a.items.length !== a.total);
    expect(answers.length).toBeGreaterThan(10);
    expect(torn.map((a) => [a.items.length, a.total])).toEqual([]);
  } finally {
    await t.close();
  }
}, 60_000);
