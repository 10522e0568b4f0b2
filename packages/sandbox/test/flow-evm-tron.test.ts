import { createClient, type Permit2Params, type SwapIntentClient } from "@swapintent/client";
import { TronWeb, Trx } from "tronweb";
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
import { SANDBOX_NETWORKS, startSandbox } from "../src/index.js";

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
  client = createClient({ baseUrl: sandbox.url, apiKey: "flow-evm-tron-test" });
});

afterAll(async () => {
  await sandbox?.close();
});

/** Tron base58 to 0x with TronWeb's converter. */
const toEvm = (tron: string) => `0x${TronWeb.address.toHex(tron).slice(2)}` as Address;

describe("Tron source through HTTP", () => {
  it("an intent signed with TronWeb over base58 params_to_sign reaches Fulfilled", async () => {
    const tron = sandbox.leg(3);
    const info = tron.info();
    const tokens = info.tokens as Record<string, string>;
    const pk = generatePrivateKey();
    const user = TronWeb.address.fromPrivateKey(pk.slice(2)) as string;
    await tron.faucet({ address: user, token: "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb", amountLots: 10n ** 18n });
    await tron.faucet({ address: user, token: tokens.USDT as string, amountLots: 80_000_000n });
    const chain = defineChain({
      id: info.chainId as number,
      name: "sandbox-tron",
      nativeCurrency: { name: "Tronix", symbol: "TRX", decimals: 18 },
      rpcUrls: { default: { http: [info.rpcUrl as string] } },
    });
    const publicClient = createPublicClient({ chain, transport: http(), pollingInterval: 20 });
    const wallet = createWalletClient({ account: privateKeyToAccount(pk), chain, transport: http() });
    await publicClient.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: toEvm(tokens.USDT as string),
        abi: erc20Abi,
        functionName: "approve",
        args: [toEvm(info.permit2Address as string), maxUint256],
      }),
    });

    const evmUser = privateKeyToAccount(generatePrivateKey()).address;
    const destTokens = sandbox.leg(1).info().tokens as Record<string, string>;
    const quote = await client.getBestQuote({
      sourceChain: 3,
      sourceToken: tokens.USDT as string,
      destChain: 1,
      destToken: destTokens.USDC as string,
      amount: "30",
      slippageBps: 50,
    });
    const intent = await client.createIntent({
      quote,
      refundAddress: user,
      userSourceAddress: user,
      userDestinationAddress: evmUser,
    });
    if (intent.approvalMechanism !== "permit2") throw new Error("expected a permit2 intent");
    const params: Permit2Params = intent.paramsToSign;
    expect(params.permit2ContractAddress).toBe(info.permit2Address);
    expect(params.escrowContractAddress).toMatch(/^T/);

    const { EIP712Domain: _domain, ...types } = params.additionalData.types;
    const w = params.additionalData.witness as Record<string, string>;
    const signature = Trx._signTypedData(
      params.additionalData.domain as never,
      types as never,
      {
        permitted: { token: quote.sourceToken, amount: quote.sourceAmountLots.toString() },
        spender: params.escrowContractAddress,
        nonce: params.nonce.toString(),
        deadline: String(intent.deadlineSecs),
        witness: w,
      },
      pk.slice(2),
    );
    await client.submitApproval({
      intentId: intent.intentId,
      approval: { type: "permit2", signedData: signature as `0x${string}` },
    });
    const final = await client.waitForIntent({
      intentId: intent.intentId,
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    expect(final.status).toBe("Fulfilled");
    expect(await tron.balanceOf(user, tokens.USDT as string)).toBe(80_000_000n - quote.sourceAmountLots);
    const received = await sandbox.leg(1).balanceOf(evmUser, destTokens.USDC as string);
    expect(received).toBeGreaterThanOrEqual(quote.minDestAmountLots);
    expect(received).toBeLessThanOrEqual(quote.maxDestAmountLots);
  });
});
