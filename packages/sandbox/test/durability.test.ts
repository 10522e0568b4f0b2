import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { createTestWallet, signTestApproval } from "./support/createTestLeg.js";
import type { Wire } from "./support/harness.js";
import { type SpawnedSandbox, spawnSandbox } from "./support/spawnSandbox.js";

const dataDir = mkdtempSync(join(tmpdir(), "sandbox-durability-"));
const running: SpawnedSandbox[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.kill()));
  rmSync(dataDir, { recursive: true, force: true });
});

const args = [
  "--port",
  "0",
  "--data-dir",
  dataDir,
  "--dev",
  "--quote-ttl",
  "600",
  "--resolver-interval",
  "50",
];

async function call(base: string, method: string, path: string, body?: unknown) {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: { "x-api-key": "durability", "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as Wire };
}

/** A quote request for `amount` USDC from network 1 to network 5, with token addresses read from `base`. */
async function usdcQuoteBody(base: string, amount: number) {
  const tokens = (await call(base, "GET", "/affiliate/v1/tokens?limit=100")).body.data as {
    network_id: number;
    symbol: string;
    contract_address: string;
  }[];
  const address = (n: number, s: string) =>
    tokens.find((t) => t.network_id === n && t.symbol === s)!.contract_address;
  return {
    source_chain: 1,
    source_token: address(1, "USDC"),
    dest_chain: 5,
    dest_token: address(5, "USDC"),
    amount,
    slippage_bps: "30",
    swap_type: "standard",
  };
}

async function waitFor(base: string, intentId: string, status: string, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < until) {
    last = (await call(base, "GET", `/affiliate/v1/intents/${intentId}/status`)).body.status;
    if (last === status) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`intent ${intentId} stayed ${last}, expected ${status}`);
}

test("SIGKILL mid-flow loses no quote, intent or swap; the unfinished intent carries on without paying twice", async () => {
  const first = await spawnSandbox({ args, env: { TEST_LEG_DELIVER_DELAY_MS: "4000" } });
  running.push(first);
  const url1 = first.url;
  const chainsBefore = (await call(url1, "GET", "/sandbox/chains")).body;
  const quoteBody = await usdcQuoteBody(url1, 42);
  const user = createTestWallet();
  const recipient = createTestWallet();
  await call(url1, "POST", "/sandbox/faucet", {
    network_id: 1,
    address: user.address,
    token: "USDC",
    amount: 1000,
  });
  const spareQuote = (await call(url1, "POST", "/affiliate/v1/quotes/best", quoteBody)).body;
  const usedQuote = (await call(url1, "POST", "/affiliate/v1/quotes/best", quoteBody)).body;
  const waitingQuote = (await call(url1, "POST", "/affiliate/v1/quotes/best", quoteBody)).body;
  const intentBody = (quoteId: string) => ({
    quote_id: quoteId,
    refund_address: user.address,
    user_source_address: user.address,
    user_destination_address: recipient.address,
  });
  const moving = (await call(url1, "POST", "/affiliate/v1/intents", intentBody(usedQuote.id))).body;
  const waiting = (await call(url1, "POST", "/affiliate/v1/intents", intentBody(waitingQuote.id))).body;
  expect(
    (
      await call(
        url1,
        "POST",
        `/affiliate/v1/intents/${moving.intent_id}/approvals`,
        signTestApproval({ wallet: user, intent: moving as never }),
      )
    ).status,
  ).toBe(200);

  // The resolver deposits, then delivers: the test leg books the delivery and holds the call open for 4 s.
  await waitFor(url1, moving.intent_id, "UserDeposited");
  await new Promise((r) => setTimeout(r, 800));
  const balanceUrl = `/sandbox/balance?network_id=5&address=${recipient.address}&token=USDC`;
  expect((await call(url1, "GET", balanceUrl)).body.balance_lots).toBe("42000000");
  expect((await call(url1, "GET", `/affiliate/v1/intents/${moving.intent_id}/status`)).body.status).toBe(
    "UserDeposited",
  );
  await first.kill("SIGKILL");

  const second = await spawnSandbox({ args });
  running.push(second);
  const url2 = second.url;
  // same seed, same legs
  expect((await call(url2, "GET", "/sandbox/chains")).body).toEqual(chainsBefore);
  // the unfinished intent carries on to its end, and the recipient is paid exactly once
  await waitFor(url2, moving.intent_id, "Fulfilled");
  const done = (await call(url2, "GET", `/affiliate/v1/intents/${moving.intent_id}/status`)).body;
  expect(done.swap_metadata.swap_tx).toBeTruthy();
  expect((await call(url2, "GET", balanceUrl)).body.balance_lots).toBe("42000000");
  expect(
    (await call(url2, "GET", `/sandbox/balance?network_id=1&address=${user.address}&token=USDC`)).body
      .balance_lots,
  ).toBe(String(1000_000000 - 42_000000));
  // the intent that was only created is still there and still Initiated
  expect((await call(url2, "GET", `/affiliate/v1/intents/${waiting.intent_id}/status`)).body.status).toBe(
    "Initiated",
  );
  // quotes survived: the used one stays used, the spare one can still be used
  expect((await call(url2, "POST", "/affiliate/v1/intents", intentBody(usedQuote.id))).body.type).toBe(
    "QUOTE_ALREADY_USED",
  );
  expect((await call(url2, "POST", "/affiliate/v1/intents", intentBody(spareQuote.id))).status).toBe(200);
  const history = (await call(url2, "GET", `/affiliate/v1/swaps/history?wallet=${user.address}`)).body;
  expect(history.total).toBe(3);
  await second.kill("SIGTERM");
}, 120_000);

test("quotes answered by one group commit survive a SIGKILL the moment the last answer arrives", async () => {
  const dir = mkdtempSync(join(tmpdir(), "sandbox-durability-quotes-"));
  try {
    const quoteArgs = ["--port", "0", "--data-dir", dir, "--dev", "--quote-ttl", "600"];
    const first = await spawnSandbox({ args: quoteArgs });
    running.push(first);
    const quoteBody = await usdcQuoteBody(first.url, 7);
    // sent together, so they share INSERTs; the process is killed as soon as every answer is in
    const quotes = await Promise.all(
      Array.from({ length: 40 }, () => call(first.url, "POST", "/affiliate/v1/quotes/best", quoteBody)),
    );
    await first.kill("SIGKILL");
    expect(quotes.map((q) => q.status)).toEqual(Array(40).fill(200));

    const second = await spawnSandbox({ args: quoteArgs });
    running.push(second);
    const user = createTestWallet();
    const answers = await Promise.all(
      quotes.map((q) =>
        call(second.url, "POST", "/affiliate/v1/intents", {
          quote_id: q.body.id,
          refund_address: user.address,
          user_source_address: user.address,
          user_destination_address: user.address,
        }),
      ),
    );
    expect(answers.map((a) => a.body.type ?? a.status)).toEqual(Array(40).fill(200));
    await second.kill("SIGTERM");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
