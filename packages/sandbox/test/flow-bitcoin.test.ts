import { signHtlcPsbt } from "@swapintent/bitcoin";
import { createClient, type Quote, type SwapIntentClient } from "@swapintent/client";
import { initEccLib, networks, Psbt, payments } from "bitcoinjs-lib";
import { ECPairFactory } from "ecpair";
import * as ecc from "tiny-secp256k1";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  http,
  maxUint256,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_NETWORKS } from "../src/config/networks.js";
import { startSandbox } from "../src/index.js";
import type { BitcoinLeg } from "../src/legs/bitcoin/index.js";

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
initEccLib(ecc);
const ECPair = ECPairFactory(ecc);
const API_KEY = "flow-bitcoin-test";
const ETH = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE";

let sandbox: Sandbox;
let client: SwapIntentClient;

beforeAll(async () => {
  sandbox = await startSandbox({
    dev: true,
    log: () => {},
    resolverIntervalMs: 50,
    networks: SANDBOX_NETWORKS.filter((n) => n.id === 1 || n.id === 4),
  });
  client = createClient({ baseUrl: sandbox.url, apiKey: API_KEY });
});

afterAll(async () => {
  await sandbox?.close();
});

const bitcoinLeg = () => sandbox.leg(4) as BitcoinLeg;
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

function btcUser() {
  const key = ECPair.makeRandom();
  const p2tr = payments.p2tr({ internalPubkey: key.publicKey.slice(1), network: networks.regtest }).address!;
  const p2wpkh = payments.p2wpkh({ pubkey: key.publicKey, network: networks.regtest }).address!;
  return { key, p2tr, p2wpkh, publicKey: hex(key.publicKey) };
}

function expectWithinQuote(received: bigint, quote: Quote) {
  expect(received).toBeGreaterThanOrEqual(quote.minDestAmountLots);
  expect(received).toBeLessThanOrEqual(quote.maxDestAmountLots);
}

function evm() {
  const info = sandbox.leg(1).info();
  const chain = defineChain({
    id: info.chainId as number,
    name: "sandbox",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [info.rpcUrl as string] } },
  });
  return { info, chain, tokens: info.tokens as Record<string, Address> };
}

async function bitcoinToEvmIntent() {
  const user = btcUser();
  const evmRecipient = privateKeyToAccount(generatePrivateKey()).address;
  await bitcoinLeg().faucet({ address: user.p2tr, token: "btc", amountLots: 80_000n });
  await bitcoinLeg().faucet({ address: user.p2wpkh, token: "btc", amountLots: 50_000n });
  const quote = await client.getBestQuote({
    sourceChain: 4,
    sourceToken: "btc",
    destChain: 1,
    destToken: evm().tokens.USDC as string,
    amount: "0.001",
    slippageBps: 50,
  });
  const intent = await client.createIntent({
    quote,
    refundAddress: user.p2wpkh,
    userSourceAddress: user.p2tr,
    userDestinationAddress: evmRecipient,
    userSourcePublicKey: user.publicKey,
  });
  if (intent.approvalMechanism !== "htlc") throw new Error("expected an htlc intent");
  return { user, evmRecipient, quote, intent };
}

describe("Bitcoin routes through HTTP, @swapintent/client and the signer packages", () => {
  it("Bitcoin -> EVM: BTC on network 4 to USDC on network 1 reaches Fulfilled; the resolver claims the HTLC", async () => {
    const { user, evmRecipient, quote, intent } = await bitcoinToEvmIntent();
    expect(quote.sourceAmountLots).toBe(100_000n);
    const inventoryBefore = await bitcoinLeg().inventory("btc");

    const { approval, verified } = await signHtlcPsbt({
      ecc,
      intent,
      quote,
      userPublicKey: user.publicKey,
      signer: user.key,
      policy: { resolverPublicKey: bitcoinLeg().info().resolverPublicKey as string },
    });
    await client.submitApproval({ intentId: intent.intentId, approval });
    const final = await client.waitForIntent({
      intentId: intent.intentId,
      timeoutMs: 45_000,
      intervalMs: 100,
    });
    expect(final.status).toBe("Fulfilled");
    expect(final.swapMetadata.userDepositTx).toBe(
      Psbt.fromBase64(approval.signedData).extractTransaction().getId(),
    );

    expectWithinQuote(await sandbox.leg(1).balanceOf(evmRecipient, evm().tokens.USDC as string), quote);
    const spent = 130_000n - (await bitcoinLeg().balanceOf(user.p2tr, "btc"));
    expect(spent).toBe(100_000n + verified.feeLots);
    expect(await bitcoinLeg().balanceOf(user.p2wpkh, "btc")).toBe(0n);
    // The claim moved the HTLC (minus the claim's fee) into the resolver's inventory.
    const gained = (await bitcoinLeg().inventory("btc")) - inventoryBefore;
    expect(gained > 99_000n && gained < 100_000n).toBe(true);
  });

  it("EVM -> Bitcoin: USDC on network 1 to BTC on network 4 reaches Fulfilled", async () => {
    const { info, chain, tokens } = evm();
    const user = privateKeyToAccount(generatePrivateKey());
    const btc = btcUser();
    await sandbox.leg(1).faucet({ address: user.address, token: ETH, amountLots: 10n ** 18n });
    await sandbox
      .leg(1)
      .faucet({ address: user.address, token: tokens.USDC as string, amountLots: 50_000_000n });
    const publicClient = createPublicClient({ chain, transport: http(), pollingInterval: 20 });
    const wallet = createWalletClient({ account: user, chain, transport: http() });
    await publicClient.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: tokens.USDC as Address,
        abi: erc20Abi,
        functionName: "approve",
        args: [info.permit2Address as Address, maxUint256],
      }),
    });
    const quote = await client.getBestQuote({
      sourceChain: 1,
      sourceToken: tokens.USDC as string,
      destChain: 4,
      destToken: "btc",
      amount: "30",
      slippageBps: 50,
    });
    const intent = await client.createIntent({
      quote,
      refundAddress: user.address,
      userSourceAddress: user.address,
      userDestinationAddress: btc.p2tr,
    });
    const { signPermit2Approval } = await import("@swapintent/permit2/evm");
    const { approval } = await signPermit2Approval({
      intent,
      quote,
      expected: { chainId: info.chainId as number, recipient: btc.p2tr, owner: user.address },
      allowedPermit2Addresses: [info.permit2Address as string],
      signer: user,
    });
    await client.submitApproval({ intentId: intent.intentId, approval });
    const final = await client.waitForIntent({
      intentId: intent.intentId,
      timeoutMs: 45_000,
      intervalMs: 100,
    });
    expect(final.status).toBe("Fulfilled");
    expectWithinQuote(await bitcoinLeg().balanceOf(btc.p2tr, "btc"), quote);
  });

  it("a PSBT with a flipped signature byte gets 422 and the intent stays Initiated", async () => {
    const { user, quote, intent } = await bitcoinToEvmIntent();
    const { approval } = await signHtlcPsbt({
      ecc,
      intent,
      quote,
      userPublicKey: user.publicKey,
      signer: user.key,
    });
    const psbt = Psbt.fromBase64(approval.signedData);
    const witness = psbt.data.inputs[0]!.finalScriptWitness!;
    witness[4] = witness[4]! ^ 0x01;
    const response = await fetch(`${sandbox.url}/affiliate/v1/intents/${intent.intentId}/approvals`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": API_KEY },
      body: JSON.stringify({ type: "psbt", signed_data: psbt.toBase64() }),
    });
    expect(response.status).toBe(422);
    expect((await client.getIntentStatus({ intentId: intent.intentId })).status).toBe("Initiated");
    expect(await bitcoinLeg().balanceOf(user.p2tr, "btc")).toBe(80_000n);
  });

  it("a failed delivery ends Refunded: the resolver pays the BTC back to the refund address", async () => {
    const { user, quote, intent } = await bitcoinToEvmIntent();
    const { approval } = await signHtlcPsbt({
      ecc,
      intent,
      quote,
      userPublicKey: user.publicKey,
      signer: user.key,
    });
    sandbox.setFaults({ fail_delivery: true });
    try {
      await client.submitApproval({ intentId: intent.intentId, approval });
      const final = await client.waitForIntent({
        intentId: intent.intentId,
        timeoutMs: 45_000,
        intervalMs: 100,
      });
      expect(final.status).toBe("Refunded");
    } finally {
      sandbox.setFaults({ fail_delivery: false });
    }
    expect(await bitcoinLeg().balanceOf(user.p2wpkh, "btc")).toBe(quote.sourceAmountLots);
  });
});
