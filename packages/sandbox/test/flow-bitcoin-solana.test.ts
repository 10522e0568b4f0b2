/**
 * Bitcoin <-> Solana through the whole sandbox over HTTP, signed with @swapintent/bitcoin and @swapintent/solana:
 * the Bitcoin side is checked by bitcore-lib's interpreter on the sandbox ledger, the Solana side runs on litesvm.
 */
import { Keypair } from "@solana/web3.js";
import { signHtlcPsbt } from "@swapintent/bitcoin";
import { createClient, type Quote, type SwapIntentClient } from "@swapintent/client";
import { signCosignTransaction } from "@swapintent/solana";
import { initEccLib, networks, payments } from "bitcoinjs-lib";
import { ECPairFactory } from "ecpair";
import * as ecc from "tiny-secp256k1";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_NETWORKS } from "../src/config/networks.js";
import { startSandbox } from "../src/index.js";

initEccLib(ecc);
const ECPair = ECPairFactory(ecc);
type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
let client: SwapIntentClient;

beforeAll(async () => {
  sandbox = await startSandbox({
    dev: true,
    log: () => {},
    resolverIntervalMs: 50,
    networks: SANDBOX_NETWORKS.filter((n) => n.id === 4 || n.id === 5),
  });
  client = createClient({ baseUrl: sandbox.url, apiKey: "flow-bitcoin-solana" });
});

afterAll(async () => {
  await sandbox?.close();
});

function btcUser() {
  const key = ECPair.makeRandom();
  const p2wpkh = payments.p2wpkh({ pubkey: key.publicKey, network: networks.regtest }).address!;
  return { key, p2wpkh, publicKey: Buffer.from(key.publicKey).toString("hex") };
}

function expectWithinQuote(received: bigint, quote: Quote) {
  expect(received).toBeGreaterThanOrEqual(quote.minDestAmountLots);
  expect(received).toBeLessThanOrEqual(quote.maxDestAmountLots);
}

describe("Bitcoin <-> Solana through @swapintent/client", { timeout: 60_000 }, () => {
  it("Solana USDC -> BTC reaches Fulfilled: the resolver pays BTC with an interpreter-checked transaction", async () => {
    const solanaInfo = sandbox.leg(5).info();
    const usdc = (solanaInfo.tokens as Record<string, string>).USDC!;
    const user = Keypair.generate();
    const address = user.publicKey.toBase58();
    const btc = btcUser();
    await sandbox.leg(5).faucet({ address, token: usdc, amountLots: 40_000_000n });
    const quote = await client.getBestQuote({
      sourceChain: 5,
      sourceToken: usdc,
      destChain: 4,
      destToken: "btc",
      amount: "30",
      slippageBps: 50,
    });
    const intent = await client.createIntent({
      quote,
      refundAddress: address,
      userSourceAddress: address,
      userDestinationAddress: btc.p2wpkh,
      userSourcePublicKey: Buffer.from(user.publicKey.toBytes()).toString("hex"),
    });
    const { approval } = await signCosignTransaction({
      intent,
      quote,
      escrow: { owner: solanaInfo.escrowOwner as string },
      signer: user,
    });
    await client.submitApproval({ intentId: intent.intentId, approval });
    const final = await client.waitForIntent({
      intentId: intent.intentId,
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    expect(final.status).toBe("Fulfilled");
    expectWithinQuote(await sandbox.leg(4).balanceOf(btc.p2wpkh, "btc"), quote);
    expect(await sandbox.leg(5).balanceOf(address, usdc)).toBe(40_000_000n - quote.sourceAmountLots);
  });

  it("BTC (P2WPKH) -> Solana USDC reaches Fulfilled", async () => {
    const usdc = (sandbox.leg(5).info().tokens as Record<string, string>).USDC!;
    const btc = btcUser();
    const recipient = Keypair.generate().publicKey.toBase58();
    await sandbox.leg(4).faucet({ address: btc.p2wpkh, token: "btc", amountLots: 90_000n });
    const quote = await client.getBestQuote({
      sourceChain: 4,
      sourceToken: "btc",
      destChain: 5,
      destToken: usdc,
      amount: "0.0005",
      slippageBps: 50,
    });
    const intent = await client.createIntent({
      quote,
      refundAddress: btc.p2wpkh,
      userSourceAddress: btc.p2wpkh,
      userDestinationAddress: recipient,
      userSourcePublicKey: btc.publicKey,
    });
    const { approval, verified } = await signHtlcPsbt({
      ecc,
      intent,
      quote,
      userPublicKey: btc.publicKey,
      signer: btc.key,
    });
    expect(verified.inputs).toEqual([{ index: 0, kind: "p2wpkh" }]);
    await client.submitApproval({ intentId: intent.intentId, approval });
    const final = await client.waitForIntent({
      intentId: intent.intentId,
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    expect(final.status).toBe("Fulfilled");
    expect(await sandbox.leg(4).balanceOf(btc.p2wpkh, "btc")).toBe(90_000n - 50_000n - verified.feeLots);
    expectWithinQuote(await sandbox.leg(5).balanceOf(recipient, usdc), quote);
  });
});
