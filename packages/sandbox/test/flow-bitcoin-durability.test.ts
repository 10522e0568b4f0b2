import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signHtlcPsbt } from "@swapintent/bitcoin";
import { createClient } from "@swapintent/client";
import { initEccLib, networks, payments } from "bitcoinjs-lib";
import { ECPairFactory } from "ecpair";
import * as ecc from "tiny-secp256k1";
import { afterAll, expect, it } from "vitest";
import { SANDBOX_NETWORKS } from "../src/config/networks.js";
import { startSandbox } from "../src/index.js";

initEccLib(ecc);
const ECPair = ECPairFactory(ecc);
const dir = mkdtempSync(join(tmpdir(), "flow-btc-durable-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const start = () =>
  startSandbox({
    dev: true,
    dataDir: dir,
    log: () => {},
    resolverIntervalMs: 50,
    networks: SANDBOX_NETWORKS.filter((n) => n.id === 1 || n.id === 4),
  });

it("a Bitcoin deposit, the resolver's claim and every balance survive a sandbox restart on the same dataDir", async () => {
  const user = ECPair.makeRandom();
  const p2tr = payments.p2tr({ internalPubkey: user.publicKey.slice(1), network: networks.regtest }).address!;
  const recipient = "0x00000000000000000000000000000000000000b7";

  const first = await start();
  let resolverKey: unknown;
  let inventory: bigint;
  let userBalance: bigint;
  let intentId: string;
  try {
    const client = createClient({ baseUrl: first.url, apiKey: "durable" });
    await first.leg(4).faucet({ address: p2tr, token: "btc", amountLots: 250_000n });
    const usdc = (first.leg(1).info().tokens as Record<string, string>).USDC as string;
    const quote = await client.getBestQuote({
      sourceChain: 4,
      sourceToken: "btc",
      destChain: 1,
      destToken: usdc,
      amount: "0.002",
      slippageBps: 50,
    });
    const intent = await client.createIntent({
      quote,
      refundAddress: p2tr,
      userSourceAddress: p2tr,
      userDestinationAddress: recipient,
      userSourcePublicKey: Buffer.from(user.publicKey).toString("hex"),
    });
    if (intent.approvalMechanism !== "htlc") throw new Error("expected an htlc intent");
    intentId = intent.intentId;
    const { approval, verified } = await signHtlcPsbt({
      ecc,
      intent,
      quote,
      userPublicKey: Buffer.from(user.publicKey).toString("hex"),
      signer: user,
    });
    await client.submitApproval({ intentId, approval });
    expect((await client.waitForIntent({ intentId, timeoutMs: 45_000, intervalMs: 100 })).status).toBe(
      "Fulfilled",
    );
    userBalance = await first.leg(4).balanceOf(p2tr, "btc");
    expect(userBalance).toBe(250_000n - 200_000n - verified.feeLots);
    resolverKey = first.leg(4).info().resolverPublicKey;
    inventory = await first.leg(4).inventory("btc");
  } finally {
    await first.close();
  }

  const second = await start();
  try {
    const client = createClient({ baseUrl: second.url, apiKey: "durable" });
    expect((await client.getIntentStatus({ intentId })).status).toBe("Fulfilled");
    expect(second.leg(4).info().resolverPublicKey).toBe(resolverKey);
    expect(await second.leg(4).inventory("btc")).toBe(inventory);
    expect(await second.leg(4).balanceOf(p2tr, "btc")).toBe(userBalance);
  } finally {
    await second.close();
  }
});
