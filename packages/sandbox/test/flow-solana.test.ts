/**
 * Solana routes through the whole sandbox over HTTP: quote -> intent -> the user signs with a swapintent signer
 * package -> approval -> resolver -> Fulfilled. The Solana side executes on litesvm (signature verification on),
 * the EVM side on anvil with the real Permit2 contract.
 */
import { Keypair, type VersionedTransaction } from "@solana/web3.js";
import { createClient, type SwapIntentClient } from "@swapintent/client";
import { signPermit2Approval } from "@swapintent/permit2/evm";
import { signCosignTransaction } from "@swapintent/solana";
import {
  type Address,
  type Chain,
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

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

const API_KEY = "flow-solana-test";
let sandbox: Sandbox;
let client: SwapIntentClient;

beforeAll(async () => {
  sandbox = await startSandbox({
    dev: true,
    log: () => {},
    resolverIntervalMs: 50,
    networks: SANDBOX_NETWORKS.filter((n) => n.id === 1 || n.id === 5),
  });
  client = createClient({ baseUrl: sandbox.url, apiKey: API_KEY });
});

afterAll(async () => {
  await sandbox?.close();
});

/** What a wallet reads from `GET /sandbox/chains` for a network. */
async function chainInfo(networkId: number): Promise<Record<string, unknown>> {
  const response = await fetch(`${sandbox.url}/sandbox/chains`, { headers: { "x-api-key": API_KEY } });
  expect(response.status).toBe(200);
  const body = (await response.json()) as unknown;
  const list = (Array.isArray(body) ? body : ((body as { items?: unknown[] }).items ?? [])) as {
    network_id: number;
    info: Record<string, unknown>;
  }[];
  const entry = list.find((c) => c.network_id === networkId);
  if (!entry) throw new Error(`network ${networkId} missing from /sandbox/chains`);
  return entry.info;
}

function evmChain(info: Record<string, unknown>): Chain {
  return defineChain({
    id: info.chainId as number,
    name: "sandbox",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [info.rpcUrl as string] } },
  });
}

async function solanaUser(usdcLots: bigint) {
  const user = Keypair.generate();
  const info = await chainInfo(5);
  const tokens = info.tokens as Record<string, string>;
  await sandbox
    .leg(5)
    .faucet({ address: user.publicKey.toBase58(), token: tokens.USDC!, amountLots: usdcLots });
  return { user, address: user.publicKey.toBase58(), info, tokens };
}

describe("Solana flows through @swapintent/client", { timeout: 60_000 }, () => {
  it("Solana USDC -> EVM USDC reaches Fulfilled: litesvm executes the user-signed transaction, the resolver claims", async () => {
    const { user, address, info, tokens } = await solanaUser(50_000_000n);
    const evmInfo = await chainInfo(1);
    const evmTokens = evmInfo.tokens as Record<string, string>;
    const recipient = privateKeyToAccount(generatePrivateKey()).address;

    const quote = await client.getBestQuote({
      sourceChain: 5,
      sourceToken: tokens.USDC!,
      destChain: 1,
      destToken: evmTokens.USDC!,
      amount: "12.5",
      slippageBps: 50,
    });
    expect(quote.sourceAmountLots).toBe(12_500_000n);
    const intent = await client.createIntent({
      quote,
      refundAddress: address,
      userSourceAddress: address,
      userDestinationAddress: recipient,
      userSourcePublicKey: Buffer.from(user.publicKey.toBytes()).toString("hex"),
    });
    expect(intent.approvalMechanism).toBe("cosign");

    const signed = await signCosignTransaction({
      intent,
      quote,
      escrow: { owner: info.escrowOwner as string },
      signer: user,
    });
    await client.submitApproval({ intentId: intent.intentId, approval: signed.approval });
    const final = await client.waitForIntent({
      intentId: intent.intentId,
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    expect(final.status).toBe("Fulfilled");

    const solana = sandbox.leg(5);
    expect(await solana.balanceOf(address, tokens.USDC!)).toBe(50_000_000n - 12_500_000n);
    // The resolver claims the escrow after delivering (Fulfilled comes first): wait for the claim's swap_tx.
    const deadline = Date.now() + 15_000;
    let claimed = final;
    while (claimed.swapMetadata.swapTx === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      claimed = await client.getIntentStatus({ intentId: intent.intentId });
    }
    expect(claimed.swapMetadata.swapTx).not.toBeNull();
    // Claimed: the escrow holds nothing for this intent any more.
    expect(await solana.balanceOf(info.escrowOwner as string, tokens.USDC!)).toBe(0n);
    const received = await sandbox.leg(1).balanceOf(recipient, evmTokens.USDC!);
    expect(received).toBeGreaterThanOrEqual(quote.minDestAmountLots);
    expect(received).toBeLessThanOrEqual(quote.maxDestAmountLots);
  });

  it("wSOL -> EVM USDC with a wallet-adapter style signer reaches Fulfilled", async () => {
    const user = Keypair.generate();
    const address = user.publicKey.toBase58();
    const info = await chainInfo(5);
    const tokens = info.tokens as Record<string, string>;
    await sandbox.leg(5).faucet({ address, token: tokens.wSOL!, amountLots: 3_000_000_000n });
    const evmTokens = (await chainInfo(1)).tokens as Record<string, string>;
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const quote = await client.getBestQuote({
      sourceChain: 5,
      sourceToken: tokens.wSOL!,
      destChain: 1,
      destToken: evmTokens.USDC!,
      amount: "1.5",
      slippageBps: 100,
    });
    expect(quote.sourceAmountLots).toBe(1_500_000_000n);
    const intent = await client.createIntent({
      quote,
      refundAddress: address,
      userSourceAddress: address,
      userDestinationAddress: recipient,
      userSourcePublicKey: Buffer.from(user.publicKey.toBytes()).toString("hex"),
    });
    let prompts = 0;
    const wallet = {
      publicKey: user.publicKey,
      async signTransaction(tx: VersionedTransaction) {
        prompts++;
        tx.sign([user]);
        return tx;
      },
    };
    const signed = await signCosignTransaction({
      intent,
      quote,
      escrow: { owner: info.escrowOwner as string },
      signer: wallet,
    });
    expect(prompts).toBe(1);
    await client.submitApproval({ intentId: intent.intentId, approval: signed.approval });
    const final = await client.waitForIntent({
      intentId: intent.intentId,
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    expect(final.status).toBe("Fulfilled");
    expect(await sandbox.leg(5).balanceOf(address, tokens.wSOL!)).toBe(1_500_000_000n);
    const received = await sandbox.leg(1).balanceOf(recipient, evmTokens.USDC!);
    expect(received).toBeGreaterThanOrEqual(quote.minDestAmountLots);
    expect(received).toBeLessThanOrEqual(quote.maxDestAmountLots);
  });

  it("EVM USDC -> Solana USDC reaches Fulfilled: Permit2 on anvil, delivery on litesvm", async () => {
    const evm = sandbox.leg(1);
    const evmInfo = await chainInfo(1);
    const evmTokens = evmInfo.tokens as Record<string, Address>;
    const chain = evmChain(evmInfo);
    const account = privateKeyToAccount(generatePrivateKey());
    await evm.faucet({
      address: account.address,
      token: "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE",
      amountLots: 10n ** 18n,
    });
    await evm.faucet({ address: account.address, token: evmTokens.USDC!, amountLots: 100_000_000n });
    const publicClient = createPublicClient({ chain, transport: http(), pollingInterval: 20 });
    const wallet = createWalletClient({ account, chain, transport: http() });
    await publicClient.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: evmTokens.USDC!,
        abi: erc20Abi,
        functionName: "approve",
        args: [evmInfo.permit2Address as Address, maxUint256],
      }),
    });

    const solInfo = await chainInfo(5);
    const solTokens = solInfo.tokens as Record<string, string>;
    const recipient = Keypair.generate().publicKey.toBase58();
    const quote = await client.getBestQuote({
      sourceChain: 1,
      sourceToken: evmTokens.USDC!,
      destChain: 5,
      destToken: solTokens.USDC!,
      amount: "20",
      slippageBps: 50,
    });
    const intent = await client.createIntent({
      quote,
      refundAddress: account.address,
      userSourceAddress: account.address,
      userDestinationAddress: recipient,
    });
    const signed = await signPermit2Approval({
      intent,
      quote,
      expected: { chainId: chain.id, recipient, owner: account.address },
      allowedPermit2Addresses: [evmInfo.permit2Address as string],
      signer: account,
    });
    await client.submitApproval({ intentId: intent.intentId, approval: signed.approval });
    const final = await client.waitForIntent({
      intentId: intent.intentId,
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    expect(final.status).toBe("Fulfilled");
    const received = await sandbox.leg(5).balanceOf(recipient, solTokens.USDC!);
    expect(received).toBeGreaterThanOrEqual(quote.minDestAmountLots);
    expect(received).toBeLessThanOrEqual(quote.maxDestAmountLots);
  });

  it("a failed delivery refunds the Solana escrow to the user (Refunded)", async () => {
    const { user, address, info, tokens } = await solanaUser(8_000_000n);
    const evmTokens = (await chainInfo(1)).tokens as Record<string, string>;
    const quote = await client.getBestQuote({
      sourceChain: 5,
      sourceToken: tokens.USDC!,
      destChain: 1,
      destToken: evmTokens.USDC!,
      amount: "3",
      slippageBps: 50,
    });
    const intent = await client.createIntent({
      quote,
      refundAddress: address,
      userSourceAddress: address,
      userDestinationAddress: privateKeyToAccount(generatePrivateKey()).address,
      userSourcePublicKey: Buffer.from(user.publicKey.toBytes()).toString("hex"),
    });
    const signed = await signCosignTransaction({
      intent,
      quote,
      escrow: { owner: info.escrowOwner as string },
      signer: user,
    });
    sandbox.setFaults({ fail_delivery: true });
    try {
      await client.submitApproval({ intentId: intent.intentId, approval: signed.approval });
      const final = await client.waitForIntent({
        intentId: intent.intentId,
        timeoutMs: 30_000,
        intervalMs: 100,
      });
      expect(final.status).toBe("Refunded");
      expect(final.swapMetadata.userDepositTx).not.toBeNull();
      expect(final.swapMetadata.refundedAt).not.toBeNull();
    } finally {
      sandbox.setFaults({ fail_delivery: false });
    }
    // The deposit executed (the user signed it), then the refund transaction paid it back.
    expect(await sandbox.leg(5).balanceOf(address, tokens.USDC!)).toBe(8_000_000n);
    expect(await sandbox.leg(5).balanceOf(info.escrowOwner as string, tokens.USDC!)).toBe(0n);
  });

  it("a Solana approval with a garbage user signature gets 422 from the leg and changes nothing", async () => {
    const { user, address, info, tokens } = await solanaUser(5_000_000n);
    const evmTokens = (await chainInfo(1)).tokens as Record<string, string>;
    const quote = await client.getBestQuote({
      sourceChain: 5,
      sourceToken: tokens.USDC!,
      destChain: 1,
      destToken: evmTokens.USDC!,
      amount: "1",
      slippageBps: 50,
    });
    const intent = await client.createIntent({
      quote,
      refundAddress: address,
      userSourceAddress: address,
      userDestinationAddress: privateKeyToAccount(generatePrivateKey()).address,
      userSourcePublicKey: Buffer.from(user.publicKey.toBytes()).toString("hex"),
    });
    const signed = await signCosignTransaction({
      intent,
      quote,
      escrow: { owner: info.escrowOwner as string },
      signer: user,
    });
    // Replace the user's 64-byte signature (slot 1, after the 1-byte count and the resolver's slot) with garbage.
    const bytes = Buffer.from(signed.transaction, "hex");
    bytes.fill(7, 1 + 64, 1 + 128);
    const response = await fetch(`${sandbox.url}/affiliate/v1/intents/${intent.intentId}/approvals`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": API_KEY },
      body: JSON.stringify({
        type: "cosign",
        signed_data: { transaction: bytes.toString("hex"), user_address: address },
      }),
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { message: string }).message).toMatch(/signature does not verify/);
    expect((await client.getIntentStatus({ intentId: intent.intentId })).status).toBe("Initiated");
    expect(await sandbox.leg(5).balanceOf(address, tokens.USDC!)).toBe(5_000_000n);
  });
});
