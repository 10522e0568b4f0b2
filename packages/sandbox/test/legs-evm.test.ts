import { randomUUID } from "node:crypto";
import {
  type Address,
  type Chain,
  createWalletClient,
  erc20Abi,
  type Hex,
  hashDomain,
  hashStruct,
  http,
  type PublicClient,
  parseAbi,
  recoverTypedDataAddress,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvmLeg } from "../src/legs/evm/index.js";
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
let tokens: Record<string, Address>;
let info: Record<string, unknown>;
let publicClient: PublicClient;
let chain: Chain;

const permit2Abi = parseAbi([
  "function DOMAIN_SEPARATOR() view returns (bytes32)",
  "function nonceBitmap(address, uint256) view returns (uint256)",
]);
const escrowUserAbi = parseAbi([
  "function refund(bytes32 intentId)",
  "error RefundTooEarly(bytes32 intentId, uint256 deadline, uint256 timestamp)",
]);

/** A user with gas money and USDC, who has (optionally) approved Permit2 like any wallet would. */
async function fundUser(options: { usdc: bigint; approve: boolean }) {
  const { account } = await fundEvmUser({
    leg,
    token: tokens.USDC as string,
    amountLots: options.usdc,
    approvePermit2: options.approve,
  });
  return account;
}

/** Build an approval for a fresh intent and sign it with plain viem, as a wallet would. */
async function signedIntent(options: {
  user: ReturnType<typeof privateKeyToAccount>;
  amount: bigint;
  deadlineSecs?: number;
}) {
  const { secret, secretHash } = createSecret();
  const deadlineSecs = options.deadlineSecs ?? Math.floor(clock.nowMs() / 1000) + 600;
  const intent = createIntent({
    sourceToken: tokens.USDC as string,
    amount: options.amount,
    user: options.user.address,
    secretHash,
    deadlineSecs,
  });
  const { paramsToSign, legData } = await leg.buildApproval(intent);
  const params = paramsToSign as unknown as Permit2ParamsJson;
  const signature = await options.user.signTypedData(
    buildTypedDataFromParams(params, {
      sourceToken: intent.sourceToken,
      amount: intent.sourceAmountLots,
      deadlineSecs,
    }) as never,
  );
  return { intent, params, legData, signature, secret };
}

beforeAll(async () => {
  leg = createEvmLeg(createLegContext({ id: 1, type: "EVM", clock }));
  await leg.start();
  info = leg.info();
  tokens = info.tokens as Record<string, Address>;
  ({ publicClient, chain } = createEngineClients(info));
});

afterAll(async () => {
  await leg?.stop();
});

describe("EVM leg: engine, tokens, faucet", () => {
  it("exports the leg factories the core's registry imports", async () => {
    expect(Object.keys(await import("../src/legs/evm/index.js")).sort()).toMatchInlineSnapshot(`
      [
        "createEvmLeg",
        "createTronLeg",
        "formatTronAddress",
        "parseTronAddress",
      ]
    `);
  });

  it("runs anvil with the sandbox chain id and a Permit2 whose domain is this chain's", async () => {
    expect(info.engine).toBe("anvil");
    expect(await publicClient.getChainId()).toBe(1337001);
    expect(info.permit2Address).not.toBe("0x000000000022D473030F116dDEE9F6B43aC78BA3");
    const separator = await publicClient.readContract({
      address: info.permit2Address as Address,
      abi: permit2Abi,
      functionName: "DOMAIN_SEPARATOR",
    });
    expect(separator).toBe(
      hashDomain({
        domain: { name: "Permit2", chainId: 1337001n, verifyingContract: info.permit2Address as Address },
        types: {
          EIP712Domain: [
            { name: "name", type: "string" },
            { name: "chainId", type: "uint256" },
            { name: "verifyingContract", type: "address" },
          ],
        },
      }),
    );
    expect((await publicClient.getCode({ address: info.escrowAddress as Address }))?.length).toBeGreaterThan(
      2,
    );
  });

  it("lists ETH (wrapping to WETH), WETH, USDC and USDT with their decimals", () => {
    const list = leg.tokens();
    expect(list.map((t) => [t.symbol, t.decimals])).toEqual([
      ["ETH", 18],
      ["WETH", 18],
      ["USDC", 6],
      ["USDT", 6],
    ]);
    expect(list[0]?.contractAddress).toBe("0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE");
    expect(list[0]?.wrappedTokenAddress).toBe(tokens.WETH);
  });

  it("mints tokens and sends native ETH with the faucet", async () => {
    const someone = privateKeyToAccount(generatePrivateKey()).address;
    await leg.faucet({ address: someone, token: tokens.USDT as string, amountLots: 123_456n });
    await leg.faucet({
      address: someone,
      token: "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE",
      amountLots: 5n,
    });
    expect(
      await publicClient.readContract({
        address: tokens.USDT as Address,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [someone],
      }),
    ).toBe(123_456n);
    expect(await publicClient.getBalance({ address: someone })).toBe(5n);
    expect(await leg.balanceOf(someone, tokens.USDT as string)).toBe(123_456n);
    expect(await leg.balanceOf(someone, "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE")).toBe(5n);
  });

  it("faucet refuses more native coin than 10^12 ETH at once (AMOUNT_INVALID): 2^256-1 wei failed in anvil (a plain Error, 500 over HTTP)", async () => {
    const someone = privateKeyToAccount(generatePrivateKey()).address;
    const native = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE";
    for (const amountLots of [10n ** 30n + 1n, 2n ** 256n - 1n])
      expect(
        (await catchLegRejection(leg.faucet({ address: someone, token: native, amountLots }))).code,
      ).toBe("AMOUNT_INVALID");
    await leg.faucet({ address: someone, token: native, amountLots: 10n ** 30n });
    expect(await publicClient.getBalance({ address: someone })).toBe(10n ** 30n);
  });

  it("wraps ETH into WETH and back one wei to one lot", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const weth = tokens.WETH as Address;
    const wethAbi = parseAbi([
      "function deposit() payable",
      "function withdraw(uint256 amount)",
      "function nativeScale() view returns (uint256)",
    ]);
    await leg.faucet({
      address: account.address,
      token: "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE",
      amountLots: 10n ** 18n,
    });
    expect(
      await publicClient.readContract({ address: weth, abi: wethAbi, functionName: "nativeScale" }),
    ).toBe(1n);
    const wallet = createWalletClient({ account, chain, transport: http() });
    // An odd amount: with scale 1 every wei is a whole lot.
    const wrap = await publicClient.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: weth,
        abi: wethAbi,
        functionName: "deposit",
        value: 12_345n,
      }),
    });
    expect(wrap.status).toBe("success");
    expect(await leg.balanceOf(account.address, weth)).toBe(12_345n);
    const before = await publicClient.getBalance({ address: account.address });
    const unwrap = await publicClient.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: weth,
        abi: wethAbi,
        functionName: "withdraw",
        args: [12_345n],
      }),
    });
    expect(unwrap.status).toBe("success");
    const after = await publicClient.getBalance({ address: account.address });
    expect(after - before + unwrap.gasUsed * unwrap.effectiveGasPrice).toBe(12_345n);
    expect(await leg.balanceOf(account.address, weth)).toBe(0n);
  });

  it("validates addresses with the EIP-55 checksum when mixed case", () => {
    const address = privateKeyToAccount(generatePrivateKey()).address;
    expect(leg.isValidAddress(address)).toBe(true);
    expect(leg.isValidAddress(address.toLowerCase())).toBe(true);
    const flipped = address.replace(/[a-f]/, (c) => c.toUpperCase());
    expect(leg.isValidAddress(flipped)).toBe(flipped === address);
    expect(leg.isValidAddress("0x1234")).toBe(false);
    expect(leg.isValidAddress("TYBNgWfhGuNzdLtjKtxXTfskAhTbMcqbaG")).toBe(false);
    expect(leg.publicKeyMatchesAddress(address, null)).toBe(true);
  });
});

describe("EVM leg: a permit2 source signed with plain viem", () => {
  it("builds params_to_sign per apps/docs/pages/reference/approvals.md, deposits into the escrow and pays the resolver on claim", async () => {
    const user = await fundUser({ usdc: 1_000_000_000n, approve: true });
    const amount = 250_000_000n;
    const { intent, params, legData, signature, secret } = await signedIntent({ user, amount });

    expect(params.additional_data.domain).toEqual({
      name: "Permit2",
      chainId: 1337001,
      verifyingContract: info.permit2Address,
    });
    expect(params.permit2_contract_address).toBe(info.permit2Address);
    expect(params.escrow_contract_address).toBe(info.escrowAddress);
    expect(params.resolver_deposit_address).toBe(info.resolverDepositAddress);
    expect(Number.isSafeInteger(params.nonce)).toBe(true);
    expect(params.additional_data.witness.intentId).toBe(
      `0x${"0".repeat(32)}${intent.intentId.replaceAll("-", "")}`,
    );
    expect(params.additional_data.witness.destChain).toBe("5");
    const { EIP712Domain: _d, ...types } = params.additional_data.types;
    const witness = buildTypedDataFromParams(params, {
      sourceToken: intent.sourceToken,
      amount,
      deadlineSecs: intent.deadlineSecs,
    }).message.witness;
    expect(params.additional_data.witness_hash).toBe(
      hashStruct({ data: witness, primaryType: "SwapWitness", types } as never),
    );
    expect(
      await recoverTypedDataAddress({
        ...buildTypedDataFromParams(params, {
          sourceToken: intent.sourceToken,
          amount,
          deadlineSecs: intent.deadlineSecs,
        }),
        signature,
      } as never),
    ).toBe(user.address);

    const verified = await leg.verifyApproval(intent, legData, { type: "permit2", signedData: signature });
    const escrowBefore = await leg.balanceOf(info.escrowAddress as string, tokens.USDC as string);
    const { txHash, legData: afterDeposit } = await leg.deposit(intent, verified.legData);
    const receipt = await publicClient.getTransactionReceipt({ hash: txHash as Hex });
    expect(receipt.status).toBe("success");
    console.log(`[measure] EVM escrow deposit gas: ${receipt.gasUsed}`);
    expect(await leg.balanceOf(user.address, tokens.USDC as string)).toBe(1_000_000_000n - amount);
    expect(await leg.balanceOf(info.escrowAddress as string, tokens.USDC as string)).toBe(
      escrowBefore + amount,
    );

    // Retried deposit (after a crash, say) returns the same transaction and moves nothing.
    expect((await leg.deposit(intent, afterDeposit)).txHash).toBe(txHash);
    expect((await leg.deposit(intent, verified.legData)).txHash).toBe(txHash);
    expect(await leg.balanceOf(user.address, tokens.USDC as string)).toBe(1_000_000_000n - amount);

    // A wrong preimage is refused by the escrow contract.
    const wrong = new Uint8Array(secret);
    wrong[0] = (wrong[0] as number) ^ 1;
    expect((await catchLegRejection(leg.claim(intent, afterDeposit, wrong))).code).toBe("SECRET_MISMATCH");

    const resolverBefore = await leg.inventory(tokens.USDC as string);
    const claim = await leg.claim(intent, afterDeposit, secret);
    expect((await publicClient.getTransactionReceipt({ hash: claim.txHash as Hex })).status).toBe("success");
    expect(await leg.inventory(tokens.USDC as string)).toBe(resolverBefore + amount);
    expect(await leg.balanceOf(info.resolverDepositAddress as string, tokens.USDC as string)).toBe(
      resolverBefore + amount,
    );
    expect((await leg.claim(intent, afterDeposit, secret)).txHash).toBe(claim.txHash);
  });

  it("rejects a tampered signature with SIGNATURE_INVALID", async () => {
    const user = await fundUser({ usdc: 10_000_000n, approve: true });
    const { intent, legData, signature } = await signedIntent({ user, amount: 1_000_000n });
    const flipped =
      `${signature.slice(0, 10)}${((Number.parseInt(signature.slice(10, 12), 16) ^ 0xff) >>> 0).toString(16).padStart(2, "0")}${signature.slice(12)}` as Hex;
    expect(
      (await catchLegRejection(leg.verifyApproval(intent, legData, { type: "permit2", signedData: flipped })))
        .code,
    ).toBe("SIGNATURE_INVALID");
    const otherSigner = await privateKeyToAccount(generatePrivateKey()).signTypedData(
      buildTypedDataFromParams((await leg.buildApproval(intent)).paramsToSign as never, {
        sourceToken: intent.sourceToken,
        amount: intent.sourceAmountLots,
        deadlineSecs: intent.deadlineSecs,
      }) as never,
    );
    expect(
      (
        await catchLegRejection(
          leg.verifyApproval(intent, legData, { type: "permit2", signedData: otherSigner }),
        )
      ).code,
    ).toBe("SIGNATURE_INVALID");
    expect(
      (
        await catchLegRejection(
          leg.verifyApproval(intent, legData, { type: "permit2", signedData: "0x1234" }),
        )
      ).code,
    ).toBe("SIGNATURE_MALFORMED");
    expect(
      (await catchLegRejection(leg.verifyApproval(intent, legData, { type: "psbt", signedData: signature })))
        .code,
    ).toBe("APPROVAL_TYPE_MISMATCH");
  });

  it("rejects a signature over a different amount", async () => {
    const user = await fundUser({ usdc: 10_000_000n, approve: true });
    const { intent, legData, signature } = await signedIntent({ user, amount: 1_000_000n });
    const tampered = { ...intent, sourceAmountLots: 2_000_000n };
    expect(
      (
        await catchLegRejection(
          leg.verifyApproval(tampered, legData, { type: "permit2", signedData: signature }),
        )
      ).code,
    ).toBe("SIGNATURE_INVALID");
    const otherRecipient = { ...intent, userDestinationAddress: "someone-else" };
    expect(
      (
        await catchLegRejection(
          leg.verifyApproval(otherRecipient, legData, { type: "permit2", signedData: signature }),
        )
      ).code,
    ).toBe("SIGNATURE_INVALID");
  });

  it("rejects a replayed Permit2 nonce with PERMIT2_NONCE_USED", async () => {
    const user = await fundUser({ usdc: 10_000_000n, approve: true });
    const first = await signedIntent({ user, amount: 1_000_000n });
    await leg.deposit(
      first.intent,
      (
        await leg.verifyApproval(first.intent, first.legData, {
          type: "permit2",
          signedData: first.signature,
        })
      ).legData,
    );
    // A second intent signed with the nonce Permit2 has already consumed.
    const { secretHash } = createSecret();
    const second = { ...first.intent, intentId: randomUUID(), secretHash };
    const params = (await leg.buildApproval(second)).paramsToSign as unknown as Permit2ParamsJson;
    const replayedParams = { ...params, nonce: first.params.nonce };
    const signature = await user.signTypedData(
      buildTypedDataFromParams(replayedParams, {
        sourceToken: second.sourceToken,
        amount: second.sourceAmountLots,
        deadlineSecs: second.deadlineSecs,
      }) as never,
    );
    expect(
      (
        await catchLegRejection(
          leg.verifyApproval(second, first.legData, { type: "permit2", signedData: signature }),
        )
      ).code,
    ).toBe("PERMIT2_NONCE_USED");
  });

  it("rejects a missing allowance, a short balance and a passed deadline", async () => {
    const noAllowance = await fundUser({ usdc: 10_000_000n, approve: false });
    const a = await signedIntent({ user: noAllowance, amount: 1_000_000n });
    expect(
      (
        await catchLegRejection(
          leg.verifyApproval(a.intent, a.legData, { type: "permit2", signedData: a.signature }),
        )
      ).code,
    ).toBe("INSUFFICIENT_ALLOWANCE");

    const poor = await fundUser({ usdc: 500_000n, approve: true });
    const b = await signedIntent({ user: poor, amount: 1_000_000n });
    expect(
      (
        await catchLegRejection(
          leg.verifyApproval(b.intent, b.legData, { type: "permit2", signedData: b.signature }),
        )
      ).code,
    ).toBe("INSUFFICIENT_BALANCE");

    const late = await fundUser({ usdc: 10_000_000n, approve: true });
    const c = await signedIntent({
      user: late,
      amount: 1_000_000n,
      deadlineSecs: Math.floor(clock.nowMs() / 1000) - 1,
    });
    expect(
      (
        await catchLegRejection(
          leg.verifyApproval(c.intent, c.legData, { type: "permit2", signedData: c.signature }),
        )
      ).code,
    ).toBe("DEADLINE_PASSED");
  });

  it("refunds: a stranger's early refund is refused by the contract, the refund after the deadline pays the owner", async () => {
    const user = await fundUser({ usdc: 10_000_000n, approve: true });
    const { intent, legData, signature } = await signedIntent({
      user,
      amount: 3_000_000n,
      deadlineSecs: Math.floor(clock.nowMs() / 1000) + 120,
    });
    const { legData: deposited } = await leg.deposit(
      intent,
      (await leg.verifyApproval(intent, legData, { type: "permit2", signedData: signature })).legData,
    );
    expect(await leg.balanceOf(user.address, tokens.USDC as string)).toBe(7_000_000n);

    const intentId = `0x${"0".repeat(32)}${intent.intentId.replaceAll("-", "")}` as Hex;
    const early = await publicClient
      .simulateContract({
        account: user.address,
        address: info.escrowAddress as Address,
        abi: escrowUserAbi,
        functionName: "refund",
        args: [intentId],
      })
      .then(
        () => "succeeded",
        (error: Error) => error.message,
      );
    expect(early).toContain("RefundTooEarly");

    clock.advanceSecs(180);
    const { txHash } = await leg.refund(intent, deposited);
    expect((await publicClient.getTransactionReceipt({ hash: txHash as Hex })).status).toBe("success");
    expect(await leg.balanceOf(user.address, tokens.USDC as string)).toBe(10_000_000n);
    expect((await leg.refund(intent, deposited)).txHash).toBe(txHash);
    expect((await catchLegRejection(leg.claim(intent, deposited, new Uint8Array(32)))).code).toBe(
      "NOT_DEPOSITED",
    );
  });

  it("lets the resolver refund before the deadline (delivery failed)", async () => {
    const user = await fundUser({ usdc: 10_000_000n, approve: true });
    const { intent, legData, signature } = await signedIntent({ user, amount: 4_000_000n });
    const { legData: deposited } = await leg.deposit(
      intent,
      (await leg.verifyApproval(intent, legData, { type: "permit2", signedData: signature })).legData,
    );
    await leg.refund(intent, deposited);
    expect(await leg.balanceOf(user.address, tokens.USDC as string)).toBe(10_000_000n);
  });
});

describe("EVM leg: delivery from the resolver's inventory", () => {
  it("delivers USDC and native ETH once per intent", async () => {
    const user = privateKeyToAccount(generatePrivateKey()).address;
    const before = await leg.inventory(tokens.USDC as string);
    expect(before).toBeGreaterThan(0n);
    const intentId = randomUUID();
    const first = await leg.deliver({
      intentId,
      token: tokens.USDC as string,
      recipient: user,
      amountLots: 42_000_000n,
    });
    expect(await leg.balanceOf(user, tokens.USDC as string)).toBe(42_000_000n);
    expect(await leg.inventory(tokens.USDC as string)).toBe(before - 42_000_000n);
    const again = await leg.deliver({
      intentId,
      token: tokens.USDC as string,
      recipient: user,
      amountLots: 42_000_000n,
    });
    expect(again.txHash).toBe(first.txHash);
    expect(await leg.balanceOf(user, tokens.USDC as string)).toBe(42_000_000n);

    await leg.deliver({
      intentId: randomUUID(),
      token: "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE",
      recipient: user,
      amountLots: 7n * 10n ** 17n,
    });
    expect(await publicClient.getBalance({ address: user })).toBe(7n * 10n ** 17n);
    expect(await leg.balanceOf(user, "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE")).toBe(7n * 10n ** 17n);
  });

  it("refuses a native source token (it must be wrapped first)", async () => {
    const { secretHash } = createSecret();
    const intent = createIntent({
      sourceToken: "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE",
      amount: 1n,
      user: privateKeyToAccount(generatePrivateKey()).address,
      secretHash,
      deadlineSecs: 2_000_000_000,
    });
    expect((await catchLegRejection(leg.buildApproval(intent))).code).toBe("NATIVE_SOURCE_UNSUPPORTED");
  });
});
