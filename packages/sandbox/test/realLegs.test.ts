/**
 * `startSandbox()` without injected legs serves every network with the real leg modules (anvil + Permit2, the
 * bitcore-checked ledger, litesvm), and their intents answer in the spec's shapes.
 */
import { Keypair } from "@solana/web3.js";
import { initEccLib, networks, payments } from "bitcoinjs-lib";
import { ECPairFactory } from "ecpair";
import * as ecc from "tiny-secp256k1";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startSandbox } from "../src/index.js";
import type { Sandbox } from "../src/types.js";
import { IntentCreationSchema, QuoteSchema, TokensResponseSchema } from "./support/specSchemas.js";

initEccLib(ecc);
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dev: true, log: () => {}, resolverIntervalMs: 60_000 });
}, 180_000);
afterAll(() => sandbox?.close());

async function call(method: string, path: string, body?: unknown) {
  const r = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { "x-api-key": "real-legs", "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> & Record<string, never> };
}

test("every network is served by its real leg with the tokens of apps/docs/pages/reference/approvals.md", async () => {
  const chains = (await call("GET", "/sandbox/chains")).body as unknown as {
    network_id: number;
    type: string;
    approval_mechanism: string;
    info: { engine: string };
  }[];
  expect(chains.map((c) => [c.network_id, c.type, c.approval_mechanism])).toEqual([
    [1, "EVM", "permit2"],
    [2, "EVM", "permit2"],
    [3, "TRON", "permit2"],
    [4, "BITCOIN", "htlc"],
    [5, "SOLANA", "cosign"],
  ]);
  expect(chains.map((c) => c.info.engine)).not.toContain("test-leg");
  const tokens = TokensResponseSchema.parse((await call("GET", "/affiliate/v1/tokens?limit=100")).body);
  const symbols = (id: number) =>
    tokens.data
      .filter((t) => t.network_id === id)
      .map((t) => t.symbol)
      .sort();
  expect(symbols(1)).toEqual(["ETH", "USDC", "USDT", "WETH"]);
  expect(symbols(2)).toEqual(["ETH", "USDC", "USDT", "WETH"]);
  expect(symbols(3)).toEqual(["TRX", "USDT", "WTRX"]);
  expect(symbols(4)).toEqual(["BTC"]);
  expect(symbols(5)).toEqual(["SOL", "USDC", "wSOL"]);
  expect(tokens.data.find((t) => t.network_id === 4)!.contract_address).toBe("btc");
});

async function tokenOf(networkId: number, symbol: string) {
  const tokens = TokensResponseSchema.parse(
    (await call("GET", `/affiliate/v1/tokens?network_id=${networkId}`)).body,
  );
  return tokens.data.find((t) => t.symbol === symbol)!.contract_address;
}

async function quote(
  sourceChain: number,
  sourceSymbol: string,
  destChain: number,
  destSymbol: string,
  amount: number,
) {
  const r = await call("POST", "/affiliate/v1/quotes/best", {
    source_chain: sourceChain,
    source_token: await tokenOf(sourceChain, sourceSymbol),
    dest_chain: destChain,
    dest_token: await tokenOf(destChain, destSymbol),
    amount,
    slippage_bps: "50",
    swap_type: "standard",
  });
  expect(r.status).toBe(200);
  return QuoteSchema.parse(r.body);
}

test("real legs build params_to_sign in the spec's shape for permit2, htlc and cosign", async () => {
  const evm = privateKeyToAccount(`0x${"11".repeat(32)}`);
  const solana = Keypair.generate();
  const btcKey = ECPairFactory(ecc).makeRandom();
  const btcAddress = payments.p2wpkh({ pubkey: btcKey.publicKey, network: networks.regtest }).address!;

  const q1 = await quote(1, "USDC", 5, "USDC", 25);
  const i1 = await call("POST", "/affiliate/v1/intents", {
    quote_id: q1.id,
    refund_address: evm.address,
    user_source_address: evm.address,
    user_destination_address: solana.publicKey.toBase58(),
  });
  expect(i1.status).toBe(200);
  expect(IntentCreationSchema.parse(i1.body).approval_mechanism).toBe("permit2");

  await call("POST", "/sandbox/faucet", { network_id: 4, address: btcAddress, token: "btc", amount: 0.5 });
  const q4 = await quote(4, "BTC", 1, "USDC", 0.01);
  const i4 = await call("POST", "/affiliate/v1/intents", {
    quote_id: q4.id,
    refund_address: btcAddress,
    user_source_address: btcAddress,
    user_source_public_key: Buffer.from(btcKey.publicKey).toString("hex"),
    user_destination_address: evm.address,
  });
  expect(i4.status).toBe(200);
  expect(IntentCreationSchema.parse(i4.body).approval_mechanism).toBe("htlc");

  await call("POST", "/sandbox/faucet", {
    network_id: 5,
    address: solana.publicKey.toBase58(),
    token: "USDC",
    amount: 100,
  });
  const q5 = await quote(5, "USDC", 1, "USDC", 10);
  const i5 = await call("POST", "/affiliate/v1/intents", {
    quote_id: q5.id,
    refund_address: solana.publicKey.toBase58(),
    user_source_address: solana.publicKey.toBase58(),
    user_source_public_key: Buffer.from(solana.publicKey.toBytes()).toString("hex"),
    user_destination_address: evm.address,
  });
  expect(i5.status).toBe(200);
  expect(IntentCreationSchema.parse(i5.body).approval_mechanism).toBe("cosign");
});

test("a real leg's refusal of an approval is 422 naming the Approval and changes nothing", async () => {
  const evm = privateKeyToAccount(`0x${"22".repeat(32)}`);
  const q = await quote(1, "USDC", 2, "USDC", 5);
  const intent = await call("POST", "/affiliate/v1/intents", {
    quote_id: q.id,
    refund_address: evm.address,
    user_source_address: evm.address,
    user_destination_address: evm.address,
  });
  const r = await call("POST", `/affiliate/v1/intents/${intent.body.intent_id}/approvals`, {
    type: "permit2",
    signed_data: `0x${"ab".repeat(64)}1b`,
  });
  expect(r.status).toBe(422);
  expect(r.body.entity).toBe("Approval");
  expect((await call("GET", `/affiliate/v1/intents/${intent.body.intent_id}/status`)).body.status).toBe(
    "Initiated",
  );
});
