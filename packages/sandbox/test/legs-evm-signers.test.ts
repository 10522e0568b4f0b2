import type { Intent, Quote } from "@swapintent/client";
import { signPermit2Approval } from "@swapintent/permit2/evm";
import { signTronPermit2Approval } from "@swapintent/permit2/tron";
import { TronWeb } from "tronweb";
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
import { createEvmLeg, createTronLeg } from "../src/legs/evm/index.js";
import type { ChainLeg, LegIntent } from "../src/legs/types.js";
import {
  createIntent,
  createLegContext,
  createManualClock,
  createSecret,
  type Permit2ParamsJson,
} from "./legs-evm-helpers.js";

/**
 * The legs' params_to_sign must pass the project's own signer packages (which check every field against the
 * quote and the intent) and the signatures they make must be accepted by Permit2 on the engine.
 */
const clock = createManualClock();
let evm: ChainLeg;
let tron: ChainLeg;

beforeAll(async () => {
  evm = createEvmLeg(createLegContext({ id: 2, type: "EVM", clock }));
  tron = createTronLeg(createLegContext({ id: 3, type: "TRON", clock }));
  await Promise.all([evm.start(), tron.start()]);
});

afterAll(async () => {
  await Promise.all([evm?.stop(), tron?.stop()]);
});

/** The client's view of an intent and a quote, from what the leg built (the wire keys camelCased as the client does). */
function toClientShapes(
  intent: LegIntent,
  params: Permit2ParamsJson,
  sourceChain: number,
): { clientIntent: Intent; quote: Quote } {
  const clientIntent: Intent = {
    intentId: intent.intentId,
    deadlineSecs: intent.deadlineSecs,
    secretHash: intent.secretHash,
    approvalMechanism: "permit2",
    paramsToSign: {
      escrowContractAddress: params.escrow_contract_address,
      permit2ContractAddress: params.permit2_contract_address,
      resolverDepositAddress: params.resolver_deposit_address,
      nonce: BigInt(params.nonce),
      additionalData: {
        domain: params.additional_data.domain,
        types: params.additional_data.types,
        witness: params.additional_data.witness,
        secretHash: params.additional_data.secretHash,
        witnessTypeString: params.additional_data.witness_type_string,
        witnessHash: params.additional_data.witness_hash,
      },
    },
  };
  const quote: Quote = {
    id: "quote-1",
    sourceChain,
    sourceToken: intent.sourceToken,
    destChain: intent.destChain,
    destToken: intent.destToken,
    intermediateToken: null,
    intermediateTokenAmountMin: null,
    intermediateTokenAmountMax: null,
    intermediateTokenDecimals: null,
    sourceAmountLots: intent.sourceAmountLots,
    sourceAmountDecimals: 6,
    minDestAmountLots: intent.minDestAmountLots,
    maxDestAmountLots: intent.maxDestAmountLots,
    destAmountDecimals: 9,
    slippageBps: 50,
    expiryMs: clock.nowMs() + 30_000,
    swapType: "standard",
  };
  return { clientIntent, quote };
}

async function approvePermit2(leg: ChainLeg, pk: `0x${string}`, token: Address, permit2: Address) {
  const info = leg.info();
  const chain = defineChain({
    id: info.chainId as number,
    name: "sandbox",
    nativeCurrency: { name: "Native", symbol: "NAT", decimals: 18 },
    rpcUrls: { default: { http: [info.rpcUrl as string] } },
  });
  const publicClient = createPublicClient({ chain, transport: http(), pollingInterval: 20 });
  const wallet = createWalletClient({ account: privateKeyToAccount(pk), chain, transport: http() });
  await publicClient.waitForTransactionReceipt({
    hash: await wallet.writeContract({
      address: token,
      abi: erc20Abi,
      functionName: "approve",
      args: [permit2, maxUint256],
    }),
  });
}

describe("permit2 legs with the @swapintent/permit2 signers", () => {
  it("EVM network 2 (chain 1337002): signPermit2Approval verifies params_to_sign, the leg deposits", async () => {
    const info = evm.info();
    const tokens = info.tokens as Record<string, Address>;
    expect(info.chainId).toBe(1337002);
    const pk = generatePrivateKey();
    const user = privateKeyToAccount(pk);
    await evm.faucet({
      address: user.address,
      token: "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE",
      amountLots: 10n ** 18n,
    });
    await evm.faucet({ address: user.address, token: tokens.USDC as string, amountLots: 5_000_000n });
    await approvePermit2(evm, pk, tokens.USDC as Address, info.permit2Address as Address);

    const { secretHash } = createSecret();
    const intent = createIntent({
      sourceToken: tokens.USDC as string,
      amount: 5_000_000n,
      user: user.address,
      secretHash,
      deadlineSecs: Math.floor(clock.nowMs() / 1000) + 900,
    });
    const { paramsToSign, legData } = await evm.buildApproval(intent);
    const { clientIntent, quote } = toClientShapes(intent, paramsToSign as unknown as Permit2ParamsJson, 2);
    const signed = await signPermit2Approval({
      intent: clientIntent,
      quote,
      expected: {
        chainId: 1337002,
        recipient: intent.userDestinationAddress,
        owner: user.address,
        spender: info.escrowAddress as string,
      },
      allowedPermit2Addresses: [info.permit2Address as string],
      nowMs: clock.nowMs(),
      signer: user,
    });
    const verified = await evm.verifyApproval(intent, legData, {
      type: "permit2",
      signedData: signed.signature,
    });
    await evm.deposit(intent, verified.legData);
    expect(await evm.balanceOf(info.escrowAddress as string, tokens.USDC as string)).toBe(5_000_000n);
  });

  it("Tron: signTronPermit2Approval with TronWeb over base58 params_to_sign, the leg deposits", async () => {
    const info = tron.info();
    const tokens = info.tokens as Record<string, string>;
    const pk = generatePrivateKey();
    const user = TronWeb.address.fromPrivateKey(pk.slice(2)) as string;
    const toEvm = (t: string) => `0x${TronWeb.address.toHex(t).slice(2)}` as Address;
    await tron.faucet({ address: user, token: "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb", amountLots: 10n ** 18n });
    await tron.faucet({ address: user, token: tokens.USDT as string, amountLots: 6_000_000n });
    await approvePermit2(tron, pk, toEvm(tokens.USDT as string), toEvm(info.permit2Address as string));

    const { secretHash } = createSecret();
    const intent = createIntent({
      sourceToken: tokens.USDT as string,
      amount: 6_000_000n,
      user,
      secretHash,
      deadlineSecs: Math.floor(clock.nowMs() / 1000) + 900,
    });
    const { paramsToSign, legData } = await tron.buildApproval(intent);
    const { clientIntent, quote } = toClientShapes(intent, paramsToSign as unknown as Permit2ParamsJson, 3);
    const signed = await signTronPermit2Approval({
      intent: clientIntent,
      quote,
      expected: {
        chainId: 1396788804,
        recipient: intent.userDestinationAddress,
        owner: user,
        spender: info.escrowAddress as string,
      },
      allowedPermit2Addresses: [info.permit2Address as string],
      nowMs: clock.nowMs(),
      privateKey: pk,
    });
    const verified = await tron.verifyApproval(intent, legData, {
      type: "permit2",
      signedData: signed.signature,
    });
    await tron.deposit(intent, verified.legData);
    expect(await tron.balanceOf(info.escrowAddress as string, tokens.USDT as string)).toBe(6_000_000n);
  });
});
