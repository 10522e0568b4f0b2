import { randomUUID } from "node:crypto";
import { TronWeb, Trx } from "tronweb";
import {
  type Address,
  type Chain,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  maxUint256,
  type PublicClient,
  parseAbi,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTronLeg, formatTronAddress, parseTronAddress } from "../src/legs/evm/index.js";
import type { ChainLeg } from "../src/legs/types.js";
import {
  buildTypedDataFromParams,
  catchLegRejection,
  createIntent,
  createLegContext,
  createManualClock,
  createSecret,
  type Permit2ParamsJson,
} from "./legs-evm-helpers.js";
import { createEngineClients, fundEvmUser, TRON_NATIVE_TOKEN } from "./support/flows.js";

const clock = createManualClock();
let leg: ChainLeg;
let info: Record<string, unknown>;
let tokens: Record<string, string>;
let publicClient: PublicClient;
let chain: Chain;

/** Engine wei per sun, written out here (not taken from the leg): 18 engine decimals minus TRX's 6. */
const WEI_PER_SUN = 10n ** 12n;
/** One TRX in sun. */
const TRX = 1_000_000n;

/** WTRX's wrapping interface, declared from what a wallet expects of a WETH-style token. */
const wrapperAbi = parseAbi([
  "function deposit() payable",
  "function withdraw(uint256 amount)",
  "function nativeScale() view returns (uint256)",
  "function totalSupply() view returns (uint256)",
  "error NotWholeLots(uint256 value, uint256 nativeScale)",
]);

/** Tron base58 to 0x with TronWeb's own converter (independent of the leg's). */
const toEvm = (tron: string) => `0x${TronWeb.address.toHex(tron).slice(2)}` as Address;

beforeAll(async () => {
  leg = createTronLeg(createLegContext({ id: 3, type: "TRON", clock }));
  await leg.start();
  info = leg.info();
  tokens = info.tokens as Record<string, string>;
  ({ publicClient, chain } = createEngineClients(info));
});

afterAll(async () => {
  await leg?.stop();
});

describe("Tron leg: engine, addresses, tokens", () => {
  it("runs anvil with chain id 1396788804 and shows every address in base58 T-form", async () => {
    expect(info.engine).toBe("anvil");
    expect(info.chainId).toBe(1396788804);
    expect(await publicClient.getChainId()).toBe(1396788804);
    for (const key of ["permit2Address", "escrowAddress", "resolverDepositAddress"]) {
      expect(info[key]).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
      expect(TronWeb.isAddress(info[key] as string)).toBe(true);
    }
    expect(
      (await publicClient.getCode({ address: toEvm(info.escrowAddress as string) }))?.length,
    ).toBeGreaterThan(2);
    expect(leg.tokens().map((t) => [t.symbol, t.decimals, t.wrappedTokenAddress])).toEqual([
      ["TRX", 6, tokens.WTRX],
      ["WTRX", 6, null],
      ["USDT", 6, null],
    ]);
    expect(leg.tokens()[0]?.contractAddress).toBe(TronWeb.address.fromHex(`41${"0".repeat(40)}`));
  });

  it("converts and validates base58check addresses like TronWeb does", () => {
    const pk = generatePrivateKey();
    const tron = TronWeb.address.fromPrivateKey(pk.slice(2)) as string;
    const evm = privateKeyToAccount(pk).address;
    expect(formatTronAddress(evm)).toBe(tron);
    expect(parseTronAddress(tron)).toBe(evm);
    expect(leg.isValidAddress(tron)).toBe(true);
    const last = tron.at(-1) === "a" ? "b" : "a";
    expect(leg.isValidAddress(`${tron.slice(0, -1)}${last}`)).toBe(false);
    expect(leg.isValidAddress(evm)).toBe(false);
    expect(leg.isValidAddress(TronWeb.address.fromHex(`42${evm.slice(2)}`))).toBe(false);
  });
});

describe("Tron leg: a permit2 source signed with TronWeb", () => {
  it("accepts a TronWeb TIP-712 signature (byte-identical to viem's), escrows and claims", async () => {
    const {
      privateKey: pk,
      account: evmUser,
      address: user,
    } = await fundEvmUser({ leg, token: tokens.USDT as string, amountLots: 50_000_000n });

    const { secret, secretHash } = createSecret();
    const deadlineSecs = Math.floor(clock.nowMs() / 1000) + 600;
    const intent = createIntent({
      sourceToken: tokens.USDT as string,
      amount: 20_000_000n,
      user,
      secretHash,
      deadlineSecs,
    });
    const { paramsToSign, legData } = await leg.buildApproval(intent);
    const params = paramsToSign as unknown as Permit2ParamsJson;
    expect(params.additional_data.domain).toEqual({
      name: "Permit2",
      chainId: 1396788804,
      verifyingContract: info.permit2Address,
    });
    expect(params.escrow_contract_address).toBe(info.escrowAddress);
    expect(params.resolver_deposit_address).toBe(info.resolverDepositAddress);

    // TronWeb signs the T-form data exactly as params_to_sign gives it.
    const typed = buildTypedDataFromParams(params, {
      sourceToken: intent.sourceToken,
      amount: intent.sourceAmountLots,
      deadlineSecs,
    });
    const tronSignature = Trx._signTypedData(typed.domain, typed.types, typed.message, pk.slice(2));
    expect(Trx.verifyTypedData(typed.domain, typed.types, typed.message, tronSignature, user)).toBe(true);

    // viem over the same data with 20-byte addresses gives the same bytes.
    const viemSignature = await evmUser.signTypedData({
      domain: { ...typed.domain, verifyingContract: toEvm(typed.domain.verifyingContract) },
      types: typed.types,
      primaryType: typed.primaryType,
      message: {
        ...typed.message,
        permitted: { token: toEvm(typed.message.permitted.token), amount: typed.message.permitted.amount },
        spender: toEvm(typed.message.spender),
      },
    } as never);
    expect(tronSignature.toLowerCase()).toBe(viemSignature.toLowerCase());

    const verified = await leg.verifyApproval(intent, legData, {
      type: "permit2",
      signedData: tronSignature,
    });
    const { txHash, legData: deposited } = await leg.deposit(intent, verified.legData);
    const receipt = await publicClient.getTransactionReceipt({ hash: txHash as Hex });
    expect(receipt.status).toBe("success");
    console.log(`[measure] Tron escrow deposit gas: ${receipt.gasUsed}`);
    expect(await leg.balanceOf(user, tokens.USDT as string)).toBe(30_000_000n);
    expect(await leg.balanceOf(info.escrowAddress as string, tokens.USDT as string)).toBe(20_000_000n);

    const before = await leg.inventory(tokens.USDT as string);
    await leg.claim(intent, deposited, secret);
    expect(await leg.inventory(tokens.USDT as string)).toBe(before + 20_000_000n);
  });

  it("rejects a tampered TronWeb signature and a signature for another chain id", async () => {
    const { privateKey: pk, address: user } = await fundEvmUser({
      leg,
      token: tokens.USDT as string,
      amountLots: 5_000_000n,
    });
    const { secretHash } = createSecret();
    const deadlineSecs = Math.floor(clock.nowMs() / 1000) + 600;
    const intent = createIntent({
      sourceToken: tokens.USDT as string,
      amount: 1_000_000n,
      user,
      secretHash,
      deadlineSecs,
    });
    const { paramsToSign, legData } = await leg.buildApproval(intent);
    const typed = buildTypedDataFromParams(paramsToSign as never, {
      sourceToken: intent.sourceToken,
      amount: intent.sourceAmountLots,
      deadlineSecs,
    });
    const good = Trx._signTypedData(typed.domain, typed.types, typed.message, pk.slice(2));
    const tampered = `${good.slice(0, 20)}${good[20] === "0" ? "1" : "0"}${good.slice(21)}`;
    expect(
      (
        await catchLegRejection(
          leg.verifyApproval(intent, legData, { type: "permit2", signedData: tampered }),
        )
      ).code,
    ).toBe("SIGNATURE_INVALID");
    const mainnet = Trx._signTypedData(
      { ...typed.domain, chainId: 728126428 },
      typed.types,
      typed.message,
      pk.slice(2),
    );
    expect(
      (await catchLegRejection(leg.verifyApproval(intent, legData, { type: "permit2", signedData: mainnet })))
        .code,
    ).toBe("SIGNATURE_INVALID");
    expect(
      (await leg.verifyApproval(intent, legData, { type: "permit2", signedData: good })).legData,
    ).toMatchObject({ signature: good.toLowerCase() });
  });

  it("delivers USDT and native TRX to a base58 recipient", async () => {
    const recipient = TronWeb.address.fromPrivateKey(generatePrivateKey().slice(2)) as string;
    await leg.deliver({
      intentId: randomUUID(),
      token: tokens.USDT as string,
      recipient,
      amountLots: 3_000_000n,
    });
    await leg.deliver({
      intentId: randomUUID(),
      token: "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb",
      recipient,
      amountLots: 4_000_000n,
    });
    expect(
      await publicClient.readContract({
        address: toEvm(tokens.USDT as string),
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [toEvm(recipient)],
      }),
    ).toBe(3_000_000n);
    // Native TRX lots are sun: 4 TRX arrive as 4_000_000 lots, which the engine holds as 4 * 10^18 wei.
    expect(await leg.balanceOf(recipient, TRON_NATIVE_TOKEN)).toBe(4_000_000n);
    expect(await publicClient.getBalance({ address: toEvm(recipient) })).toBe(4_000_000n * WEI_PER_SUN);
  });

  it("reports the resolver's TRX inventory as its engine balance in whole sun, and pays deliveries from it", async () => {
    const resolver = toEvm(info.resolverAddress as string);
    const before = await leg.inventory(TRON_NATIVE_TOKEN);
    expect(before).toBe((await publicClient.getBalance({ address: resolver })) / WEI_PER_SUN);
    const recipient = TronWeb.address.fromPrivateKey(generatePrivateKey().slice(2)) as string;
    const { txHash } = await leg.deliver({
      intentId: randomUUID(),
      token: TRON_NATIVE_TOKEN,
      recipient,
      amountLots: 2_500_000n,
    });
    const receipt = await publicClient.getTransactionReceipt({ hash: txHash as Hex });
    const gasWei = receipt.gasUsed * receipt.effectiveGasPrice;
    const after = await leg.inventory(TRON_NATIVE_TOKEN);
    expect(after).toBe((await publicClient.getBalance({ address: resolver })) / WEI_PER_SUN);
    // The resolver paid the 2.5 TRX plus the transaction's gas (a fraction of a sun's worth of wei is rounding).
    const paidWei = 2_500_000n * WEI_PER_SUN + gasWei;
    expect(before - after).toBeGreaterThanOrEqual(paidWei / WEI_PER_SUN);
    expect(before - after).toBeLessThanOrEqual(paidWei / WEI_PER_SUN + 1n);
  });
});

describe("Tron leg: native TRX is scaled like Tron (1 sun = 10^12 engine wei)", () => {
  it("a user given 50 TRX by the faucet pays for its own approve(permit2, max) and keeps most of it", async () => {
    const privateKey = generatePrivateKey();
    const account = privateKeyToAccount(privateKey);
    const user = TronWeb.address.fromPrivateKey(privateKey.slice(2)) as string;
    await leg.faucet({ address: user, token: TRON_NATIVE_TOKEN, amountLots: 50n * TRX });
    expect(await leg.balanceOf(user, TRON_NATIVE_TOKEN)).toBe(50_000_000n);
    const engineBefore = await publicClient.getBalance({ address: account.address });
    expect(engineBefore).toBe(50_000_000n * WEI_PER_SUN);

    // A wallet's one-time allowance, sent with viem and its default fees, paid from the user's own TRX.
    const wallet = createWalletClient({ account, chain, transport: http() });
    const hash = await wallet.writeContract({
      address: toEvm(tokens.USDT as string),
      abi: erc20Abi,
      functionName: "approve",
      args: [toEvm(info.permit2Address as string), maxUint256],
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    expect(
      await publicClient.readContract({
        address: toEvm(tokens.USDT as string),
        abi: erc20Abi,
        functionName: "allowance",
        args: [account.address, toEvm(info.permit2Address as string)],
      }),
    ).toBe(maxUint256);

    const feeWei = receipt.gasUsed * receipt.effectiveGasPrice;
    const engineAfter = await publicClient.getBalance({ address: account.address });
    expect(engineAfter).toBe(engineBefore - feeWei);
    const after = await leg.balanceOf(user, TRON_NATIVE_TOKEN);
    expect(after).toBe(engineAfter / WEI_PER_SUN);
    expect(after).toBeLessThan(50_000_000n);
    expect(after).toBeGreaterThan(0n);
    expect(after).toBeGreaterThan(25_000_000n); // most of the 50 TRX is left
    console.log(
      `[measure] Tron approve(permit2): gas ${receipt.gasUsed} at ${receipt.effectiveGasPrice} wei = ${feeWei} wei = ${feeWei / WEI_PER_SUN} sun (${Number(feeWei / WEI_PER_SUN) / 1e6} TRX)`,
    );
  });

  it("wraps 1 TRX into 1_000_000 WTRX lots and unwraps them into 10^18 wei", async () => {
    const privateKey = generatePrivateKey();
    const account = privateKeyToAccount(privateKey);
    const user = TronWeb.address.fromPrivateKey(privateKey.slice(2)) as string;
    const wtrx = toEvm(tokens.WTRX as string);
    await leg.faucet({ address: user, token: TRON_NATIVE_TOKEN, amountLots: 3n * TRX });
    const wallet = createWalletClient({ account, chain, transport: http() });
    const supplyBefore = await publicClient.readContract({
      address: wtrx,
      abi: wrapperAbi,
      functionName: "totalSupply",
    });

    const wrap = await publicClient.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: wtrx,
        abi: wrapperAbi,
        functionName: "deposit",
        value: 10n ** 18n,
      }),
    });
    expect(wrap.status).toBe("success");
    expect(await leg.balanceOf(user, tokens.WTRX as string)).toBe(1_000_000n);
    expect(
      await publicClient.readContract({ address: wtrx, abi: wrapperAbi, functionName: "totalSupply" }),
    ).toBe(supplyBefore + 1_000_000n);
    expect(await publicClient.getBalance({ address: wtrx })).toBeGreaterThanOrEqual(10n ** 18n);

    const beforeUnwrap = await publicClient.getBalance({ address: account.address });
    const unwrap = await publicClient.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: wtrx,
        abi: wrapperAbi,
        functionName: "withdraw",
        args: [1_000_000n],
      }),
    });
    expect(unwrap.status).toBe("success");
    const afterUnwrap = await publicClient.getBalance({ address: account.address });
    expect(afterUnwrap - beforeUnwrap + unwrap.gasUsed * unwrap.effectiveGasPrice).toBe(10n ** 18n);
    expect(await leg.balanceOf(user, tokens.WTRX as string)).toBe(0n);
    expect(
      await publicClient.readContract({ address: wtrx, abi: wrapperAbi, functionName: "totalSupply" }),
    ).toBe(supplyBefore);
  });

  it("refuses to wrap a value that is not a whole number of sun", async () => {
    const privateKey = generatePrivateKey();
    const account = privateKeyToAccount(privateKey);
    const user = TronWeb.address.fromPrivateKey(privateKey.slice(2)) as string;
    const wtrx = toEvm(tokens.WTRX as string);
    await leg.faucet({ address: user, token: TRON_NATIVE_TOKEN, amountLots: 2n * TRX });
    expect(
      await publicClient.readContract({ address: wtrx, abi: wrapperAbi, functionName: "nativeScale" }),
    ).toBe(WEI_PER_SUN);
    const refused = await publicClient
      .simulateContract({
        account,
        address: wtrx,
        abi: wrapperAbi,
        functionName: "deposit",
        value: 10n ** 18n + 1n,
      })
      .then(
        () => undefined,
        (error: unknown) => error as Error & { walk: (fn: (e: unknown) => boolean) => unknown },
      );
    expect(refused).toBeDefined();
    const revert = refused?.walk((e) => (e as { name?: string }).name === "ContractFunctionRevertedError") as
      | { data?: { errorName: string; args: readonly unknown[] } }
      | undefined;
    expect(revert?.data?.errorName).toBe("NotWholeLots");
    expect(revert?.data?.args).toEqual([10n ** 18n + 1n, WEI_PER_SUN]);
    expect(await leg.balanceOf(user, tokens.WTRX as string)).toBe(0n);
  });
});
