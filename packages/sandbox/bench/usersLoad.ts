/**
 * End-to-end load for the sandbox benchmark, run as its own process (measureService.ts starts it with tsx's
 * loader): `users` concurrent users, each in a loop for `seconds`: quote -> intent -> signed approval, then one
 * status read of its oldest unfinished intent (polling, as a wallet does). Afterwards every user polls its
 * unfinished intents until they end or `drainSeconds` pass. Prints one JSON line: intents approved and fulfilled,
 * fulfilled per second over the load window, status-read latencies, and approved intents left behind.
 * Test legs (TEST DOUBLE) sign approvals; this measures the service and its resolver, not the chain engines.
 */
import { createTestWallet, signTestApproval, type TestWallet } from "../test/support/createTestLeg.js";
import { createHttpClient, percentile } from "./httpClient.js";

const config = JSON.parse(process.argv[2] ?? "{}") as {
  port: number;
  users?: number;
  seconds?: number;
  drainSeconds?: number;
  quoteBody: Record<string, unknown>;
};
const users = config.users ?? 6;
const client = createHttpClient({ port: config.port, maxSockets: users * 2 });
const TERMINAL = new Set(["Fulfilled", "Declined", "Expired", "Refunded"]);

// biome-ignore lint/suspicious/noExplicitAny: wire JSON, checked by status codes
type Wire = any;

/** One request; the body parsed as JSON. */
async function call(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Wire; ms: number }> {
  const r = await client.call(method, path, body);
  return { status: r.status, body: r.text ? JSON.parse(r.text) : undefined, ms: r.ms };
}

const statusMs: number[] = [];
let approved = 0;
let fulfilled = 0;
let fulfilledInWindow = 0;
let errors = 0;
const outcomes: Record<string, number> = {};

async function readStatus(id: string): Promise<string> {
  const r = await call("GET", `/affiliate/v1/intents/${id}/status`);
  statusMs.push(r.ms);
  if (r.status !== 200) {
    errors++;
    return "error";
  }
  return r.body.status as string;
}

async function user(wallet: TestWallet, until: number): Promise<string[]> {
  const open: string[] = [];
  const settle = (id: string, status: string, inWindow: boolean) => {
    outcomes[status] = (outcomes[status] ?? 0) + 1;
    if (status === "Fulfilled") {
      fulfilled++;
      if (inWindow) fulfilledInWindow++;
    }
    open.splice(open.indexOf(id), 1);
  };
  while (performance.now() < until) {
    const quote = await call("POST", "/affiliate/v1/quotes/best", config.quoteBody);
    if (quote.status !== 200) {
      errors++;
      continue;
    }
    const intent = await call("POST", "/affiliate/v1/intents", {
      quote_id: quote.body.id,
      refund_address: wallet.address,
      user_source_address: wallet.address,
      user_destination_address: wallet.address,
    });
    if (intent.status !== 200) {
      errors++;
      continue;
    }
    const approval = await call(
      "POST",
      `/affiliate/v1/intents/${intent.body.intent_id}/approvals`,
      signTestApproval({ wallet, intent: intent.body }),
    );
    if (approval.status !== 200) {
      errors++;
      continue;
    }
    approved++;
    open.push(intent.body.intent_id);
    const oldest = open[0]!;
    const status = await readStatus(oldest);
    if (TERMINAL.has(status)) settle(oldest, status, true);
  }
  // Drain: poll what is still open until it ends or the drain time is up.
  const drainUntil = performance.now() + (config.drainSeconds ?? 30) * 1000;
  while (open.length > 0 && performance.now() < drainUntil) {
    for (const id of [...open]) {
      const status = await readStatus(id);
      if (TERMINAL.has(status)) settle(id, status, false);
    }
    if (open.length > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return open;
}

async function main() {
  const wallets = Array.from({ length: users }, () => createTestWallet());
  for (const wallet of wallets) {
    const funded = await call("POST", "/sandbox/faucet", {
      network_id: config.quoteBody.source_chain,
      address: wallet.address,
      token: config.quoteBody.source_token,
      amount: 1_000_000,
    });
    if (funded.status !== 200) throw new Error(`faucet: ${JSON.stringify(funded.body)}`);
  }
  const started = performance.now();
  const until = started + (config.seconds ?? 10) * 1000;
  const left = (await Promise.all(wallets.map((w) => user(w, until)))).flat();
  const windowSeconds = (until - started) / 1000;
  // Conservative: everything fulfilled, over the load window plus the time the last intents took to finish.
  const totalSeconds = (performance.now() - started) / 1000;
  statusMs.sort((a, b) => a - b);
  const pct = (p: number) => percentile(statusMs, p);
  client.close();
  process.stdout.write(
    `${JSON.stringify({
      users,
      windowSeconds,
      approved,
      fulfilled,
      totalSeconds,
      fulfilledPerSecond: fulfilled / totalSeconds,
      fulfilledSeenInWindow: fulfilledInWindow,
      approvedPerSecond: approved / windowSeconds,
      outcomes,
      leftBehind: left.length,
      statusReads: statusMs.length,
      statusP50Ms: pct(0.5),
      statusP99Ms: pct(0.99),
      errors,
    })}\n`,
  );
}

await main();
