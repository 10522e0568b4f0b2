/**
 * End to end through HTTP: EVM -> Tron and Tron -> EVM swaps driven with @swapintent/client and signed with
 * @swapintent/permit2 only (no hand-built typed data), executed by the real Permit2 on the sandbox's anvil
 * engines, until the intent is Fulfilled and the user holds the destination tokens.
 */
import { createClient, type Quote, type SwapIntentClient } from "@swapintent/client";
import { parseTronAddress, verifyPermit2Approval } from "@swapintent/permit2";
import { getPermit2Allowance, signPermit2Approval } from "@swapintent/permit2/evm";
import { signTronPermit2Approval } from "@swapintent/permit2/tron";
import { TronWeb } from "tronweb";
import { type Address, createPublicClient, createWalletClient, defineChain, type Hex, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_NETWORKS } from "../src/config/networks.js";
import { startSandbox } from "../src/index.js";

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;
let client: SwapIntentClient;

beforeAll(async () => {
  sandbox = await startSandbox({
    dev: true,
    log: () => {},
    resolverIntervalMs: 50,
    networks: SANDBOX_NETWORKS.filter((n) => n.id === 1 || n.id === 3),
  });
  client = createClient({ baseUrl: sandbox.url, apiKey: "flow-permit2-e2e" });
});

afterAll(async () => {
  await sandbox?.close();
});

function engineOf(networkId: number) {
  const info = sandbox.leg(networkId).info();
  const chain = defineChain({
    id: info.chainId as number,
    name: "sandbox",
    nativeCurrency: { name: "Native", symbol: "NAT", decimals: 18 },
    rpcUrls: { default: { http: [info.rpcUrl as string] } },
  });
  return {
    info,
    chain,
    tokens: info.tokens as Record<string, string>,
    publicClient: createPublicClient({ chain, transport: http(), pollingInterval: 20 }),
  };
}

/** Gives Permit2 the ERC-20 allowance when the package's helper says it is missing (the wallet's job). */
async function ensureAllowance(
  networkId: number,
  privateKey: Hex,
  owner: Address,
  token: Address,
  amount: bigint,
) {
  const { info, chain, publicClient } = engineOf(networkId);
  const permit2 = info.permit2Address as string;
  const permit2Hex = (permit2.startsWith("T") ? parseTronAddress({ address: permit2 }) : permit2) as Address;
  const allowance = await getPermit2Allowance({
    publicClient,
    token,
    owner,
    amount,
    permit2Address: permit2Hex,
  });
  if (allowance.sufficient) return;
  const wallet = createWalletClient({ account: privateKeyToAccount(privateKey), chain, transport: http() });
  const hash = await wallet.sendTransaction(allowance.approveTransaction);
  expect((await publicClient.waitForTransactionReceipt({ hash })).status).toBe("success");
}

function expectWithinQuote(received: bigint, quote: Quote) {
  expect(received).toBeGreaterThanOrEqual(quote.minDestAmountLots);
  expect(received).toBeLessThanOrEqual(quote.maxDestAmountLots);
}

describe("permit2 swaps end to end with @swapintent/client + @swapintent/permit2", () => {
  it("EVM -> Tron: USDC on network 1 to USDT on network 3 reaches Fulfilled", async () => {
    const source = engineOf(1);
    const dest = engineOf(3);
    const privateKey = generatePrivateKey();
    const user = privateKeyToAccount(privateKey);
    const tronRecipient = TronWeb.address.fromPrivateKey(generatePrivateKey().slice(2)) as string;
    const usdc = source.tokens.USDC as Address;
    await sandbox.leg(1).faucet({
      address: user.address,
      token: "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE",
      amountLots: 10n ** 18n,
    });
    await sandbox.leg(1).faucet({ address: user.address, token: usdc, amountLots: 50_000_000n });

    const quote = await client.getBestQuote({
      sourceChain: 1,
      sourceToken: usdc,
      destChain: 3,
      destToken: dest.tokens.USDT as string,
      amount: "20",
      slippageBps: 50,
    });
    const intent = await client.createIntent({
      quote,
      refundAddress: user.address,
      userSourceAddress: user.address,
      userDestinationAddress: tronRecipient,
    });
    const verified = verifyPermit2Approval({
      intent,
      quote,
      expected: { chainId: source.info.chainId as number, recipient: tronRecipient },
      allowedPermit2Addresses: [source.info.permit2Address as string],
    });
    await ensureAllowance(1, privateKey, user.address, usdc, verified.summary.amountLots);

    const { approval } = await signPermit2Approval({
      intent,
      quote,
      expected: { chainId: source.info.chainId as number, recipient: tronRecipient, owner: user.address },
      allowedPermit2Addresses: [source.info.permit2Address as string],
      signer: user,
    });
    await client.submitApproval({ intentId: intent.intentId, approval });
    const final = await client.waitForIntent({
      intentId: intent.intentId,
      timeoutMs: 45_000,
      intervalMs: 100,
    });
    expect(final.status).toBe("Fulfilled");

    expect(await sandbox.leg(1).balanceOf(user.address, usdc)).toBe(50_000_000n - quote.sourceAmountLots);
    expectWithinQuote(await sandbox.leg(3).balanceOf(tronRecipient, dest.tokens.USDT as string), quote);
  });

  it("Tron -> EVM: USDT on network 3 to USDC on network 1 reaches Fulfilled", async () => {
    const source = engineOf(3);
    const dest = engineOf(1);
    const privateKey = generatePrivateKey();
    const user = TronWeb.address.fromPrivateKey(privateKey.slice(2)) as string;
    const userHex = parseTronAddress({ address: user }) as Address;
    const evmRecipient = privateKeyToAccount(generatePrivateKey()).address;
    const usdt = source.tokens.USDT as string;
    await sandbox
      .leg(3)
      .faucet({ address: user, token: "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb", amountLots: 10n ** 18n });
    await sandbox.leg(3).faucet({ address: user, token: usdt, amountLots: 50_000_000n });

    const quote = await client.getBestQuote({
      sourceChain: 3,
      sourceToken: usdt,
      destChain: 1,
      destToken: dest.tokens.USDC as string,
      amount: "15",
      slippageBps: 50,
    });
    const intent = await client.createIntent({
      quote,
      refundAddress: user,
      userSourceAddress: user,
      userDestinationAddress: evmRecipient,
    });
    await ensureAllowance(
      3,
      privateKey,
      userHex,
      parseTronAddress({ address: usdt }) as Address,
      quote.sourceAmountLots,
    );

    const { approval, verified } = await signTronPermit2Approval({
      intent,
      quote,
      expected: { chainId: source.info.chainId as number, recipient: evmRecipient, owner: user },
      allowedPermit2Addresses: [source.info.permit2Address as string],
      privateKey,
    });
    expect(verified.typedData.domain.verifyingContract).toBe(source.info.permit2Address);
    await client.submitApproval({ intentId: intent.intentId, approval });
    const final = await client.waitForIntent({
      intentId: intent.intentId,
      timeoutMs: 45_000,
      intervalMs: 100,
    });
    expect(final.status).toBe("Fulfilled");

    expect(await sandbox.leg(3).balanceOf(user, usdt)).toBe(50_000_000n - quote.sourceAmountLots);
    expectWithinQuote(await sandbox.leg(1).balanceOf(evmRecipient, dest.tokens.USDC as string), quote);
  });
});
