import { randomUUID } from "node:crypto";
import { TronWeb, Trx } from "tronweb";
import { type Address, erc20Abi, type Hex, type PublicClient } from "viem";
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
import { createEngineClients, fundEvmUser } from "./support/flows.js";

const clock = createManualClock();
let leg: ChainLeg;
let info: Record<string, unknown>;
let tokens: Record<string, string>;
let publicClient: PublicClient;

/** Tron base58 to 0x with TronWeb's own converter (independent of the leg's). */
const toEvm = (tron: string) => `0x${TronWeb.address.toHex(tron).slice(2)}` as Address;

beforeAll(async () => {
  leg = createTronLeg(createLegContext({ id: 3, type: "TRON", clock }));
  await leg.start();
  info = leg.info();
  tokens = info.tokens as Record<string, string>;
  ({ publicClient } = createEngineClients(info));
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
    expect(await publicClient.getBalance({ address: toEvm(recipient) })).toBe(4_000_000n);
  });
});
