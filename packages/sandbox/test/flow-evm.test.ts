import { createClient, type Permit2Params, type SwapIntentClient } from "@swapintent/client";
import {
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  type Hex,
  http,
  maxUint256,
} from "viem";
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
    networks: SANDBOX_NETWORKS.filter((n) => n.type === "EVM"),
  });
  client = createClient({ baseUrl: sandbox.url, apiKey: "flow-evm-test" });
});

afterAll(async () => {
  await sandbox?.close();
});

function chainOf(info: Record<string, unknown>): Chain {
  return defineChain({
    id: info.chainId as number,
    name: "sandbox",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [info.rpcUrl as string] } },
  });
}

/** The EIP-712 request a wallet builds from params_to_sign and the quote (plain viem, no swapintent signer). */
function typedDataFor(
  params: Permit2Params,
  quote: { sourceToken: string; sourceAmountLots: bigint },
  deadlineSecs: number,
) {
  const { EIP712Domain: _domain, ...types } = params.additionalData.types;
  const w = params.additionalData.witness as Record<string, string>;
  return {
    domain: params.additionalData.domain,
    types,
    primaryType: "PermitWitnessTransferFrom",
    message: {
      permitted: { token: quote.sourceToken, amount: quote.sourceAmountLots },
      spender: params.escrowContractAddress,
      nonce: params.nonce,
      deadline: BigInt(deadlineSecs),
      witness: {
        intentId: w.intentId,
        secretHash: w.secretHash,
        destChain: BigInt(w.destChain as string),
        destToken: w.destToken,
        recipient: w.recipient,
        minDestAmount: BigInt(w.minDestAmount as string),
        maxDestAmount: BigInt(w.maxDestAmount as string),
      },
    },
  } as never;
}

async function fundedUser() {
  const source = sandbox.leg(1);
  const info = source.info();
  const tokens = info.tokens as Record<string, Address>;
  const chain = chainOf(info);
  const account = privateKeyToAccount(generatePrivateKey());
  await source.faucet({
    address: account.address,
    token: "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE",
    amountLots: 10n ** 18n,
  });
  await source.faucet({ address: account.address, token: tokens.USDC as string, amountLots: 100_000_000n });
  const publicClient = createPublicClient({ chain, transport: http(), pollingInterval: 20 });
  const wallet = createWalletClient({ account, chain, transport: http() });
  await publicClient.waitForTransactionReceipt({
    hash: await wallet.writeContract({
      address: tokens.USDC as Address,
      abi: erc20Abi,
      functionName: "approve",
      args: [info.permit2Address as Address, maxUint256],
    }),
  });
  return { account, tokens };
}

async function quoteAndIntent(user: Address, sourceToken: string) {
  const destTokens = sandbox.leg(2).info().tokens as Record<string, string>;
  const quote = await client.getBestQuote({
    sourceChain: 1,
    sourceToken,
    destChain: 2,
    destToken: destTokens.USDT as string,
    amount: "25",
    slippageBps: 50,
  });
  const intent = await client.createIntent({
    quote,
    refundAddress: user,
    userSourceAddress: user,
    userDestinationAddress: user,
  });
  if (intent.approvalMechanism !== "permit2") throw new Error("expected a permit2 intent");
  return { quote, intent, destToken: destTokens.USDT as string };
}

describe("EVM source through HTTP", () => {
  it("an intent signed with plain viem reaches Fulfilled: the escrow pays the resolver, the user receives on network 2", async () => {
    const { account, tokens } = await fundedUser();
    const { quote, intent, destToken } = await quoteAndIntent(account.address, tokens.USDC as string);
    expect(intent.paramsToSign.permit2ContractAddress).toBe(sandbox.leg(1).info().permit2Address);

    const signature = await account.signTypedData(
      typedDataFor(intent.paramsToSign, quote, intent.deadlineSecs),
    );
    await client.submitApproval({
      intentId: intent.intentId,
      approval: { type: "permit2", signedData: signature },
    });
    const final = await client.waitForIntent({
      intentId: intent.intentId,
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    expect(final.status).toBe("Fulfilled");

    expect(await sandbox.leg(1).balanceOf(account.address, tokens.USDC as string)).toBe(
      100_000_000n - quote.sourceAmountLots,
    );
    const received = await sandbox.leg(2).balanceOf(account.address, destToken);
    expect(received).toBeGreaterThanOrEqual(quote.minDestAmountLots);
    expect(received).toBeLessThanOrEqual(quote.maxDestAmountLots);
    const escrow = sandbox.leg(1).info().escrowAddress as string;
    expect(await sandbox.leg(1).balanceOf(escrow, tokens.USDC as string)).toBe(0n);
  });

  it("a tampered signature gets 422 and the intent stays unapproved", async () => {
    const { account, tokens } = await fundedUser();
    const { quote, intent } = await quoteAndIntent(account.address, tokens.USDC as string);
    const signature = await account.signTypedData(
      typedDataFor(intent.paramsToSign, quote, intent.deadlineSecs),
    );
    const tampered =
      `${signature.slice(0, 12)}${signature[12] === "0" ? "1" : "0"}${signature.slice(13)}` as Hex;
    const response = await fetch(`${sandbox.url}/affiliate/v1/intents/${intent.intentId}/approvals`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "flow-evm-test" },
      body: JSON.stringify({ type: "permit2", signed_data: tampered }),
    });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { code: number; message: string };
    expect(body.code).toBe(422);
    expect((await client.getIntentStatus({ intentId: intent.intentId })).status).toBe("Initiated");
    expect(await sandbox.leg(1).balanceOf(account.address, tokens.USDC as string)).toBe(100_000_000n);
  });

  it("when delivery fails the resolver refunds: the intent ends Refunded and the user has the tokens back", async () => {
    const { account, tokens } = await fundedUser();
    const { quote, intent } = await quoteAndIntent(account.address, tokens.USDC as string);
    const signature = await account.signTypedData(
      typedDataFor(intent.paramsToSign, quote, intent.deadlineSecs),
    );
    sandbox.setFaults({ fail_delivery: true });
    try {
      await client.submitApproval({
        intentId: intent.intentId,
        approval: { type: "permit2", signedData: signature },
      });
      const final = await client.waitForIntent({
        intentId: intent.intentId,
        timeoutMs: 30_000,
        intervalMs: 100,
      });
      expect(final.status).toBe("Refunded");
    } finally {
      sandbox.setFaults({ fail_delivery: false });
    }
    expect(await sandbox.leg(1).balanceOf(account.address, tokens.USDC as string)).toBe(100_000_000n);
    expect(
      await sandbox.leg(1).balanceOf(sandbox.leg(1).info().escrowAddress as string, tokens.USDC as string),
    ).toBe(0n);
  });
});
