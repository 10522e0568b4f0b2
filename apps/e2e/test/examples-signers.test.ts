/**
 * The root README's Tron, Bitcoin and Solana signer snippets (examples/permit2-tron.ts, bitcoin.ts, solana.ts) run
 * literally against the sandbox: the snippet's own function signs, the approval is submitted and the intent must
 * reach Fulfilled. The demo's route runner does the rest (funding, quote, intent); only the wallet's `approve` is the
 * snippet. (examples-permit2*.test.ts run the EVM and wallet snippets the same way.)
 */

import { Keypair } from "@solana/web3.js";
import { type Approval, createSwapIntentClient, type Intent, type Quote } from "@swapintent/client";
import { startSandbox } from "@swapintent/sandbox";
import { createDevApi } from "@swapintent/testing/devApi";
import { networks } from "bitcoinjs-lib";
import { ECPairFactory } from "ecpair";
import * as ecc from "tiny-secp256k1";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signOnBitcoin } from "../examples/bitcoin.js";
import { signOnTron } from "../examples/permit2-tron.js";
import { signOnSolana } from "../examples/solana.js";
import { Redactor } from "../src/redact.js";
import { type RouteEnd, runRoute } from "../src/runRoute.js";
import { createWallet, type WalletKeys } from "../src/wallets/index.js";
import { readFact } from "../src/wallets/types.js";
import { openPermit2Intent } from "./permit2Intent.js";

const API_KEY = "examples-signers";
type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dev: true, resolverIntervalMs: 50, log: () => {} });
});

afterAll(async () => {
  await sandbox?.close();
});

/**
 * One end of a route on the sandbox: the network of `type`, its token `symbol`, a demo wallet with `keys`, and
 * `fact(name)`, that network's chain fact the wallet configures (escrow owner, resolver key...).
 */
async function routeEnd(
  type: string,
  symbol: string,
  keys: WalletKeys = {},
): Promise<RouteEnd & { fact: (name: string) => string }> {
  const client = createSwapIntentClient({ baseUrl: sandbox.url, apiKey: API_KEY });
  const network = (await client.getNetworks()).find((n) => n.type === type);
  if (!network) throw new Error(`the sandbox has no ${type} network`);
  const token = (await client.getTokens({ networkId: network.id })).items.find((t) => t.symbol === symbol);
  if (!token) throw new Error(`no ${symbol} on ${network.name}`);
  const facts = (await createDevApi({ baseUrl: sandbox.url, apiKey: API_KEY }).chains()).find(
    (c) => c.network_id === network.id,
  );
  if (!facts) throw new Error(`no chain facts for ${network.name}`);
  return {
    network,
    token,
    wallet: createWallet({ type, info: facts.info, redactor: new Redactor(), keys }),
    fact: (name) => readFact(facts.info, name),
  };
}

/** Runs `from -> to` with the source wallet's approval made by `snippet`; returns how the route ended. */
async function runWithSnippet(
  from: RouteEnd,
  to: RouteEnd,
  amount: string,
  snippet: (intent: Intent, quote: Quote) => Promise<Approval>,
) {
  let calls = 0;
  const wallet = {
    ...from.wallet,
    approve: async ({ intent, quote }: { intent: Intent; quote: Quote }) => {
      calls++;
      return { approval: await snippet(intent, quote), summary: [] };
    },
  };
  const result = await runRoute({
    client: createSwapIntentClient({ baseUrl: sandbox.url, apiKey: API_KEY }),
    route: {
      name: `${from.network.type} -> ${to.network.type}`,
      from: { ...from, wallet },
      to,
      amount,
      slippageBps: 50,
    },
    dev: createDevApi({ baseUrl: sandbox.url, apiKey: API_KEY }),
    dryRun: false,
    onProgress: () => {},
    timeoutMs: 90_000,
  });
  return { calls, finalStatus: result.finalStatus, error: result.error };
}

describe("README snippets of the signer packages, run against the sandbox", () => {
  it("examples/permit2-tron.ts: Tron USDT -> USDC of network 2 with a private key reaches Fulfilled", async () => {
    const opened = await openPermit2Intent(sandbox.url, 3);
    process.env.TRON_PRIVATE_KEY = opened.privateKey;
    try {
      const approval = await signOnTron(...opened.args);
      await opened.client.submitApproval({ intentId: opened.intent.intentId, approval });
    } finally {
      delete process.env.TRON_PRIVATE_KEY;
    }
    const final = await opened.client.waitForIntent({ intentId: opened.intent.intentId, timeoutMs: 60_000 });
    expect(final.status).toBe("Fulfilled");
  });

  it("examples/bitcoin.ts: Bitcoin -> EVM with an ecpair key (a mainnet WIF, as the snippet reads it) reaches Fulfilled", async () => {
    // one key: the snippet reads it as a mainnet WIF (ECPair's default network), the demo wallet as regtest
    const ECPair = ECPairFactory(ecc);
    const key = ECPair.makeRandom();
    const from = await routeEnd("BITCOIN", "BTC", {
      bitcoinWif: ECPair.fromPrivateKey(key.privateKey!, { network: networks.regtest }).toWIF(),
    });
    const resolverPublicKey = from.fact("resolverPublicKey");
    const run = await runWithSnippet(from, await routeEnd("EVM", "USDC"), "0.001", (intent, quote) =>
      signOnBitcoin(intent, quote, key.toWIF(), resolverPublicKey),
    );
    expect(run).toEqual({ calls: 1, finalStatus: "Fulfilled", error: null });
  });

  it("examples/solana.ts: Solana USDC -> EVM USDC with a web3.js Keypair reaches Fulfilled", async () => {
    const user = Keypair.generate();
    const from = await routeEnd("SOLANA", "USDC", { solanaSecretKey: user.secretKey });
    const escrowOwner = from.fact("escrowOwner");
    const run = await runWithSnippet(from, await routeEnd("EVM", "USDC"), "20", (intent, quote) =>
      signOnSolana(intent, quote, user, escrowOwner),
    );
    expect(run).toEqual({ calls: 1, finalStatus: "Fulfilled", error: null });
  });
});
