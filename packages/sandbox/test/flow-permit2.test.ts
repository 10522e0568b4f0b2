/**
 * @swapintent/permit2 against the real Permit2 contract: the sandbox's EVM and Tron legs (anvil + Permit2
 * compiled from Uniswap's sources + the sandbox escrow) build params_to_sign, the signer package verifies and
 * signs them with each kind of signer, and the leg's verifyApproval + deposit execute the signature on chain.
 */
import { isSwapIntentError } from "@swapintent/client";
import { verifyPermit2Approval } from "@swapintent/permit2";
import { getPermit2Allowance, type Permit2EvmSigner, signPermit2Approval } from "@swapintent/permit2/evm";
import { signTronPermit2Approval } from "@swapintent/permit2/tron";
import { TronWeb } from "tronweb";
import { type Address, createWalletClient, custom, type Hex, http, type TypedDataDefinition } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvmLeg, createTronLeg } from "../src/legs/evm/index.js";
import { type ChainLeg, type LegIntent, LegRejection } from "../src/legs/types.js";
import { createIntent, createLegContext, createSecret, toClientShapes } from "./legs-evm-helpers.js";
import { createEngineClients, fundEvmUser } from "./support/flows.js";

/** The sandbox clock: fixed for these tests (the legs read it). */
const now = Date.now();
const clock = { nowMs: () => now };
let evm: ChainLeg;
let tron: ChainLeg;

beforeAll(async () => {
  evm = createEvmLeg(createLegContext({ id: 1, type: "EVM", clock }));
  tron = createTronLeg(createLegContext({ id: 3, type: "TRON", clock }));
  await Promise.all([evm.start(), tron.start()]);
});

afterAll(async () => {
  await Promise.all([evm?.stop(), tron?.stop()]);
});

const RECIPIENT = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";

function newIntent(options: {
  sourceToken: string;
  amount: bigint;
  user: string;
  recipient?: string;
}): LegIntent {
  return createIntent({
    ...options,
    secretHash: createSecret().secretHash,
    deadlineSecs: Math.floor(now / 1000) + 900,
  });
}

/** The client's intent and quote for a leg intent and its wire params_to_sign. */
const clientShapes = (
  intent: LegIntent,
  paramsToSign: Parameters<typeof toClientShapes>[0]["paramsToSign"],
  sourceChain: number,
) => toClientShapes({ intent, paramsToSign, sourceChain, nowMs: now });

async function rpc(url: string, method: string, params: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: params ?? [] }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result;
}

/** A browser wallet stand-in: EIP-1193, its own key, signs the JSON it receives, forwards the rest to anvil. */
function injectedWallet(privateKey: Hex, rpcUrl: string) {
  const wallet = privateKeyToAccount(privateKey);
  const signRequests: string[] = [];
  return {
    signRequests,
    async request({ method, params }: { method: string; params?: unknown }): Promise<unknown> {
      if (method === "eth_accounts" || method === "eth_requestAccounts") return [wallet.address];
      if (method === "eth_signTypedData_v4") {
        const [, json] = params as [string, string];
        signRequests.push(json);
        const { domain, types, message } = JSON.parse(json);
        const { EIP712Domain: _, ...structs } = types;
        // What arrives is JSON (uint256 as decimal strings), exactly as an extension receives it.
        return wallet.signTypedData({
          domain,
          types: structs,
          primaryType: "PermitWitnessTransferFrom",
          message,
        } as unknown as TypedDataDefinition);
      }
      return rpc(rpcUrl, method, params);
    },
  };
}

describe("@swapintent/permit2 against the real Permit2 on the sandbox legs", () => {
  it("EVM: allowance helper finds the missing approval, an injected wallet signs, Permit2 executes the deposit", async () => {
    const info = evm.info();
    const tokens = info.tokens as Record<string, Address>;
    const { chain, publicClient } = createEngineClients(info);
    const { privateKey: pk, account: user } = await fundEvmUser({
      leg: evm,
      token: tokens.USDC!,
      amountLots: 5_000_000n,
      approvePermit2: false,
    });

    const intent = newIntent({ sourceToken: tokens.USDC!, amount: 5_000_000n, user: user.address });
    const { paramsToSign, legData } = await evm.buildApproval(intent);
    const { clientIntent, quote } = clientShapes(intent, paramsToSign, 1);
    const common = {
      intent: clientIntent,
      quote,
      expected: {
        chainId: 1337001,
        recipient: RECIPIENT,
        owner: user.address,
        spender: info.escrowAddress as string,
      },
      allowedPermit2Addresses: [info.permit2Address as string],
      nowMs: now,
    };

    // Before signing: the allowance to Permit2 is missing; the helper hands over the approve transaction.
    const verified = verifyPermit2Approval(common);
    const before = await getPermit2Allowance({
      publicClient,
      token: verified.typedData.message.permitted.token as Address,
      owner: user.address,
      amount: verified.typedData.message.permitted.amount,
      permit2Address: verified.typedData.domain.verifyingContract as Address,
    });
    expect(before.sufficient).toBe(false);
    const sender = createWalletClient({ account: user, chain, transport: http() });
    const approveHash = await sender.sendTransaction(before.approveTransaction!);
    expect((await publicClient.waitForTransactionReceipt({ hash: approveHash })).status).toBe("success");
    const after = await getPermit2Allowance({
      publicClient,
      token: tokens.USDC!,
      owner: user.address,
      amount: 5_000_000n,
      permit2Address: info.permit2Address as Address,
    });
    expect(after.sufficient).toBe(true);

    // The injected wallet signs through a viem WalletClient.
    const provider = injectedWallet(pk, info.rpcUrl as string);
    const walletClient = createWalletClient({ chain, transport: custom(provider) });
    const signed = await signPermit2Approval({ ...common, signer: walletClient });
    expect(provider.signRequests).toHaveLength(1);

    const accepted = await evm.verifyApproval(intent, legData, {
      type: "permit2",
      signedData: signed.approval.signedData,
    });
    await evm.deposit(intent, accepted.legData);
    expect(await evm.balanceOf(info.escrowAddress as string, tokens.USDC!)).toBe(5_000_000n);
    expect(await evm.balanceOf(user.address, tokens.USDC!)).toBe(0n);
  });

  it("EVM: a hardware-style signer's v = 0/1 is refused as is, and accepted once the package normalizes it", async () => {
    const info = evm.info();
    const tokens = info.tokens as Record<string, Address>;
    const { account: user } = await fundEvmUser({ leg: evm, token: tokens.USDT!, amountLots: 1_000_000n });

    const intent = newIntent({ sourceToken: tokens.USDT!, amount: 1_000_000n, user: user.address });
    const { paramsToSign, legData } = await evm.buildApproval(intent);
    const raw: string[] = [];
    const ledgerLike: Permit2EvmSigner = {
      address: user.address,
      async signTypedData(typedData) {
        const sig = await user.signTypedData(typedData as unknown as TypedDataDefinition);
        const zeroOne = `${sig.slice(0, 130)}0${Number.parseInt(sig.slice(130), 16) - 27}`;
        raw.push(zeroOne);
        return zeroOne;
      },
    };
    const { clientIntent, quote } = clientShapes(intent, paramsToSign, 1);
    const signed = await signPermit2Approval({
      intent: clientIntent,
      quote,
      expected: { chainId: 1337001, recipient: RECIPIENT, spender: info.escrowAddress as string },
      allowedPermit2Addresses: [info.permit2Address as string],
      nowMs: now,
      signer: ledgerLike,
    });
    await expect(
      evm.verifyApproval(intent, legData, { type: "permit2", signedData: raw[0] }),
    ).rejects.toBeInstanceOf(LegRejection);
    const accepted = await evm.verifyApproval(intent, legData, {
      type: "permit2",
      signedData: signed.signature,
    });
    await evm.deposit(intent, accepted.legData);
    expect(await evm.balanceOf(info.escrowAddress as string, tokens.USDT!)).toBe(1_000_000n);
  });

  it("EVM: a permit paying another recipient is valid for Permit2 (a real threat), and the package refuses to sign it", async () => {
    const info = evm.info();
    const tokens = info.tokens as Record<string, Address>;
    const { account: user } = await fundEvmUser({ leg: evm, token: tokens.USDC!, amountLots: 2_000_000n });

    // A dishonest service builds the witness for the attacker's destination address.
    const attacker = "AttackerAttackerAttackerAttackerAttacker111";
    const intent = newIntent({
      sourceToken: tokens.USDC!,
      amount: 2_000_000n,
      user: user.address,
      recipient: attacker,
    });
    const { paramsToSign, legData } = await evm.buildApproval(intent);
    const { clientIntent, quote } = clientShapes(intent, paramsToSign, 1);
    const parameters = {
      intent: clientIntent,
      quote,
      expected: { chainId: 1337001, recipient: RECIPIENT, spender: info.escrowAddress as string },
      allowedPermit2Addresses: [info.permit2Address as string],
      nowMs: now,
    };
    const error = await signPermit2Approval({ ...parameters, signer: user }).catch((e: unknown) => e);
    expect(isSwapIntentError(error, "PERMIT2_RECIPIENT_MISMATCH")).toBe(true);

    // What a wallet that does not verify would sign: Permit2 accepts it and the funds move.
    const blind = verifyPermit2Approval({
      ...parameters,
      expected: { ...parameters.expected, recipient: attacker },
    });
    const blindSignature = await user.signTypedData(blind.typedData as unknown as TypedDataDefinition);
    const accepted = await evm.verifyApproval(intent, legData, {
      type: "permit2",
      signedData: blindSignature,
    });
    await evm.deposit(intent, accepted.legData);
    expect(await evm.balanceOf(user.address, tokens.USDC!)).toBe(0n);
  });

  it("Tron: a TronLink-style signer and a TronWeb private key sign base58 params; Permit2 executes both", async () => {
    const info = tron.info();
    const tokens = info.tokens as Record<string, string>;

    for (const mode of ["tronlink", "privateKey"] as const) {
      const pk = generatePrivateKey();
      const tronWeb = new TronWeb({ fullHost: "http://127.0.0.1:9", privateKey: pk.slice(2) });
      const user = tronWeb.defaultAddress.base58 as string;
      await fundEvmUser({ leg: tron, privateKey: pk, token: tokens.USDT!, amountLots: 3_000_000n });

      const intent = newIntent({ sourceToken: tokens.USDT!, amount: 3_000_000n, user });
      const { paramsToSign, legData } = await tron.buildApproval(intent);
      const { clientIntent, quote } = clientShapes(intent, paramsToSign, 3);
      const parameters = {
        intent: clientIntent,
        quote,
        expected: {
          chainId: 1396788804,
          recipient: RECIPIENT,
          owner: user,
          spender: info.escrowAddress as string,
        },
        allowedPermit2Addresses: [info.permit2Address as string],
        nowMs: now,
      };
      const signed =
        mode === "tronlink"
          ? await signTronPermit2Approval({
              ...parameters,
              signer: {
                address: user,
                signTypedData: ({ domain, types, message }) =>
                  tronWeb.trx._signTypedData(domain, types, message),
              },
            })
          : await signTronPermit2Approval({ ...parameters, privateKey: pk });
      // TronWeb's signature equals viem's over the 20-byte form of the same data.
      const viemSignature = await privateKeyToAccount(pk).signTypedData(
        signed.verified.hashedTypedData as unknown as TypedDataDefinition,
      );
      expect(signed.signature).toBe(viemSignature);

      const accepted = await tron.verifyApproval(intent, legData, {
        type: "permit2",
        signedData: signed.signature,
      });
      await tron.deposit(intent, accepted.legData);
      expect(await tron.balanceOf(user, tokens.USDT!)).toBe(0n);
    }
    expect(await tron.balanceOf(info.escrowAddress as string, tokens.USDT!)).toBe(6_000_000n);
  });
});
