import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Keypair, VersionedTransaction } from "@solana/web3.js";
import type { Intent } from "@swapintent/client";
import { signCosignTransaction } from "@swapintent/solana";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSolanaLeg } from "../src/legs/solana/index.js";
import type { ChainLeg, Json, LegContext, LegIntent } from "../src/legs/types.js";
import { LegRejection } from "../src/legs/types.js";

const NATIVE = "11111111111111111111111111111111";
const WSOL = "So11111111111111111111111111111111111111112";

function context(overrides: Partial<LegContext> = {}): LegContext & { now: { ms: number } } {
  const now = { ms: 1_900_000_000_000 };
  return {
    network: {
      id: 5,
      name: "Sandbox Solana",
      type: "SOLANA",
      supportsOptimizedSwap: false,
      supportsCustomTokens: false,
      iconUrl: "",
    },
    clock: { nowMs: () => now.ms },
    dataDir: undefined,
    seed: new Uint8Array(32).fill(5),
    log: () => {},
    now,
    ...overrides,
  };
}

function hexToBytes(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex, "hex"));
}

function newIntent(user: Keypair, sourceToken: string, amount: bigint): LegIntent & { secret: Uint8Array } {
  const secret = new Uint8Array(randomBytes(32));
  return {
    intentId: randomUUID(),
    sourceToken,
    sourceAmountLots: amount,
    destChain: 1,
    destToken: "0x0000000000000000000000000000000000000001",
    minDestAmountLots: 1n,
    maxDestAmountLots: 2n,
    userSourceAddress: user.publicKey.toBase58(),
    userSourcePublicKey: Buffer.from(user.publicKey.toBytes()).toString("hex"),
    userDestinationAddress: "0x0000000000000000000000000000000000000002",
    refundAddress: user.publicKey.toBase58(),
    secretHash: `0x${createHash("sha256").update(secret).digest("hex")}`,
    deadlineSecs: 2_000_000_000,
    secret,
  };
}

/** Build the approval on the leg and sign it as a wallet would: with @swapintent/solana, escrow owner from info(). */
async function buildAndSign(leg: ChainLeg, intent: LegIntent, user: Keypair) {
  const { paramsToSign, legData } = await leg.buildApproval(intent);
  const transaction = (paramsToSign as { transaction: string }).transaction;
  const clientIntent: Intent = {
    intentId: intent.intentId,
    deadlineSecs: intent.deadlineSecs,
    secretHash: intent.secretHash,
    approvalMechanism: "cosign",
    paramsToSign: { transaction },
  };
  const signed = await signCosignTransaction({
    intent: clientIntent,
    quote: { sourceToken: intent.sourceToken, sourceAmountLots: intent.sourceAmountLots },
    escrow: { owner: leg.info().escrowOwner as string },
    signer: user,
  });
  const wire = {
    type: "cosign" as const,
    signedData: { transaction: signed.transaction, user_address: signed.userAddress },
  };
  return { transaction, legData, signed, wire };
}

async function rejection(promise: Promise<unknown>): Promise<LegRejection> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LegRejection);
  return error as LegRejection;
}

describe("Solana leg (litesvm)", () => {
  const ctx = context();
  const leg = createSolanaLeg(ctx);
  let usdc: string;
  const user = Keypair.generate();

  beforeAll(async () => {
    await leg.start();
    usdc = leg.tokens().find((t) => t.symbol === "USDC")!.contractAddress;
  });
  afterAll(() => leg.stop());

  it("lists SOL (wrapping to the real wSOL mint), wSOL and USDC, and its facts", () => {
    expect(leg.tokens().map((t) => [t.symbol, t.decimals, t.wrappedTokenAddress])).toEqual([
      ["SOL", 9, WSOL],
      ["wSOL", 9, null],
      ["USDC", 6, null],
    ]);
    const info = leg.info();
    expect(info).toMatchObject({
      engine: "litesvm",
      signatureVerification: true,
      mints: { USDC: usdc, wSOL: WSOL },
    });
    expect(info.escrowOwner).not.toBe(info.resolverAddress);
    expect(info.feePayer).toBe(info.resolverAddress);
  });

  it("keeps the Clock sysvar in step with the sandbox clock", () => {
    expect(leg.info().clockUnixTimestamp).toBe(1_900_000_000);
    ctx.now.ms += 3_600_000;
    expect(leg.info().clockUnixTimestamp).toBe(1_900_003_600);
  });

  it("validates addresses and public keys", () => {
    const address = user.publicKey.toBase58();
    expect(leg.isValidAddress(address)).toBe(true);
    expect(leg.isValidAddress("0x1234")).toBe(false);
    expect(leg.isValidAddress("1111111111111111111111111111111O")).toBe(false);
    const hex = Buffer.from(user.publicKey.toBytes()).toString("hex");
    expect(leg.publicKeyMatchesAddress(address, hex)).toBe(true);
    expect(leg.publicKeyMatchesAddress(Keypair.generate().publicKey.toBase58(), hex)).toBe(false);
    expect(leg.publicKeyMatchesAddress(address, null)).toBe(false);
  });

  it("faucet mints USDC, wraps wSOL and sends SOL", async () => {
    const address = user.publicKey.toBase58();
    await leg.faucet({ address, token: usdc, amountLots: 5_000_000n });
    await leg.faucet({ address, token: WSOL, amountLots: 2_000_000_000n });
    await leg.faucet({ address, token: NATIVE, amountLots: 1_000_000_000n });
    await leg.faucet({ address, token: usdc, amountLots: 1_000_000n }); // same request twice is a new transaction
    expect(await leg.balanceOf(address, usdc)).toBe(6_000_000n);
    expect(await leg.balanceOf(address, WSOL)).toBe(2_000_000_000n);
    expect(await leg.balanceOf(address, NATIVE)).toBe(1_000_000_000n);
  });

  it("build -> sign (@swapintent/solana) -> verify -> deposit -> claim moves the tokens escrow -> resolver", async () => {
    const intent = newIntent(user, usdc, 1_250_000n);
    const { legData, wire } = await buildAndSign(leg, intent, user);
    const before = await leg.balanceOf(user.publicKey.toBase58(), usdc);
    const inventoryBefore = await leg.inventory(usdc);
    const verified = await leg.verifyApproval(intent, legData, wire);
    expect(await leg.balanceOf(user.publicKey.toBase58(), usdc)).toBe(before); // simulation changes nothing
    const deposited = await leg.deposit(intent, verified.legData);
    expect(await leg.balanceOf(user.publicKey.toBase58(), usdc)).toBe(before - 1_250_000n);
    expect(await leg.balanceOf(leg.info().escrowOwner as string, usdc)).toBeGreaterThanOrEqual(1_250_000n);
    expect((await leg.deposit(intent, verified.legData)).txHash).toBe(deposited.txHash); // idempotent

    expect((await rejection(leg.claim(intent, deposited.legData, new Uint8Array(32)))).code).toBe(
      "SECRET_MISMATCH",
    );
    const claimed = await leg.claim(intent, deposited.legData, intent.secret);
    expect(await leg.inventory(usdc)).toBe(inventoryBefore + 1_250_000n);
    expect((await leg.claim(intent, deposited.legData, intent.secret)).txHash).toBe(claimed.txHash);
    expect((await rejection(leg.refund(intent, deposited.legData))).code).toBe("ALREADY_CLAIMED");
  });

  it("refund returns the escrowed tokens to the user (wSOL source given as native SOL)", async () => {
    const intent = newIntent(user, NATIVE, 500_000_000n);
    const { legData, wire } = await buildAndSign(leg, intent, user);
    const verified = await leg.verifyApproval(intent, legData, wire);
    const address = user.publicKey.toBase58();
    const before = await leg.balanceOf(address, WSOL);
    const deposited = await leg.deposit(intent, verified.legData);
    expect(await leg.balanceOf(address, WSOL)).toBe(before - 500_000_000n);
    expect((await rejection(leg.refund(newIntent(user, NATIVE, 1n), deposited.legData))).code).toBe(
      "NOT_DEPOSITED",
    );
    const refunded = await leg.refund(intent, deposited.legData);
    expect(await leg.balanceOf(address, WSOL)).toBe(before);
    expect((await leg.refund(intent, deposited.legData)).txHash).toBe(refunded.txHash);
  });

  it("faucet refuses an amount over a u64 (AMOUNT_INVALID) for SOL, wSOL and USDC, never a 500", async () => {
    const someone = Keypair.generate().publicKey.toBase58();
    for (const token of [NATIVE, WSOL, usdc])
      for (const amountLots of [2n ** 64n, 2n ** 256n - 1n])
        expect((await rejection(leg.faucet({ address: someone, token, amountLots }))).code).toBe(
          "AMOUNT_INVALID",
        );
    expect(await leg.balanceOf(someone, usdc)).toBe(0n);
  });

  describe("verifyApproval refuses", () => {
    it("a message changed after building (TRANSACTION_MODIFIED), even when validly signed", async () => {
      const intent = newIntent(user, usdc, 1_000n);
      const { legData } = await leg.buildApproval(intent);
      const other = await buildAndSign(leg, { ...intent, sourceAmountLots: 2_000n }, user);
      expect((await rejection(leg.verifyApproval(intent, legData, other.wire))).code).toBe(
        "TRANSACTION_MODIFIED",
      );
    });

    it("a missing user signature (SIGNATURE_MISSING) and a garbage one (SIGNATURE_INVALID)", async () => {
      const intent = newIntent(user, usdc, 1_000n);
      const { legData, transaction, signed, wire } = await buildAndSign(leg, intent, user);
      const missing = { ...wire, signedData: { ...wire.signedData, transaction } };
      expect((await rejection(leg.verifyApproval(intent, legData, missing))).code).toBe("SIGNATURE_MISSING");
      const tx = VersionedTransaction.deserialize(hexToBytes(signed.transaction));
      tx.signatures[1] = new Uint8Array(64).fill(7);
      const garbage = {
        ...wire,
        signedData: { ...wire.signedData, transaction: Buffer.from(tx.serialize()).toString("hex") },
      };
      expect((await rejection(leg.verifyApproval(intent, legData, garbage))).code).toBe("SIGNATURE_INVALID");
    });

    it("another user's address (USER_MISMATCH) and a wrong approval type", async () => {
      const intent = newIntent(user, usdc, 1_000n);
      const { legData, wire } = await buildAndSign(leg, intent, user);
      const other = {
        ...wire,
        signedData: { ...wire.signedData, user_address: Keypair.generate().publicKey.toBase58() },
      };
      expect((await rejection(leg.verifyApproval(intent, legData, other))).code).toBe("USER_MISMATCH");
      expect(
        (await rejection(leg.verifyApproval(intent, legData, { type: "permit2", signedData: "0x" }))).code,
      ).toBe("APPROVAL_TYPE_MISMATCH");
    });

    it("a transaction litesvm would fail: the user lacks the tokens (SIMULATION_FAILED)", async () => {
      const poor = Keypair.generate();
      await leg.faucet({ address: poor.publicKey.toBase58(), token: usdc, amountLots: 10n });
      const intent = newIntent(poor, usdc, 1_000n);
      const { legData, wire } = await buildAndSign(leg, intent, poor);
      expect((await rejection(leg.verifyApproval(intent, legData, wire))).code).toBe("SIMULATION_FAILED");
    });
  });

  it("deposit fails with a LegRejection when the funds are gone by then (two approvals for one balance)", async () => {
    const owner = Keypair.generate();
    await leg.faucet({ address: owner.publicKey.toBase58(), token: usdc, amountLots: 4_000n });
    const a = newIntent(owner, usdc, 4_000n);
    const b = newIntent(owner, usdc, 4_000n);
    const signedA = await buildAndSign(leg, a, owner);
    const signedB = await buildAndSign(leg, b, owner);
    const verifiedA = await leg.verifyApproval(a, signedA.legData, signedA.wire);
    const verifiedB = await leg.verifyApproval(b, signedB.legData, signedB.wire);
    await leg.deposit(a, verifiedA.legData);
    expect((await rejection(leg.deposit(b, verifiedB.legData))).code).toBe("DEPOSIT_FAILED");
    expect(await leg.balanceOf(owner.publicKey.toBase58(), usdc)).toBe(0n);
  });

  it("delivers USDC and native SOL from the inventory, once per intent", async () => {
    const recipient = Keypair.generate().publicKey.toBase58();
    const intentId = randomUUID();
    const inventory = await leg.inventory(usdc);
    const first = await leg.deliver({ intentId, token: usdc, recipient, amountLots: 777n });
    expect(await leg.balanceOf(recipient, usdc)).toBe(777n);
    expect(await leg.inventory(usdc)).toBe(inventory - 777n);
    expect((await leg.deliver({ intentId, token: usdc, recipient, amountLots: 777n })).txHash).toBe(
      first.txHash,
    );
    await leg.deliver({ intentId: randomUUID(), token: NATIVE, recipient, amountLots: 3_000_000_000n });
    expect(await leg.balanceOf(recipient, NATIVE)).toBe(3_000_000_000n);
    const tooMuch = leg.deliver({
      intentId: randomUUID(),
      token: usdc,
      recipient,
      amountLots: inventory * 2n,
    });
    expect((await rejection(tooMuch)).code).toBe("INSUFFICIENT_INVENTORY");
  });
});

describe("Solana leg durability (dataDir)", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "swapintent-solana-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("restores balances, addresses, pending approvals and deposits after a restart", async () => {
    const user = Keypair.generate();
    const address = user.publicKey.toBase58();
    const first = createSolanaLeg(context({ dataDir }));
    await first.start();
    const usdc = first.tokens()[2]!.contractAddress;
    const info = first.info();
    await first.faucet({ address, token: usdc, amountLots: 9_000n });
    const pending = newIntent(user, usdc, 1_000n);
    const pendingApproval = await buildAndSign(first, pending, user);
    const deposited = newIntent(user, usdc, 2_000n);
    const approval = await buildAndSign(first, deposited, user);
    const verified = await first.verifyApproval(deposited, approval.legData, approval.wire);
    const deposit = await first.deposit(deposited, verified.legData);
    await first.stop();

    const second = createSolanaLeg(context({ dataDir }));
    await second.start();
    expect(second.info().escrowOwner).toBe(info.escrowOwner);
    expect(second.tokens()[2]!.contractAddress).toBe(usdc);
    expect(await second.balanceOf(address, usdc)).toBe(7_000n);
    // The deposit is remembered: a retry answers with the same transaction.
    expect((await second.deposit(deposited, verified.legData)).txHash).toBe(deposit.txHash);
    await second.claim(deposited, deposit.legData, deposited.secret);
    // An approval built before the restart still verifies and executes (same blockhash).
    const pendingVerified = await second.verifyApproval(
      pending,
      pendingApproval.legData,
      pendingApproval.wire,
    );
    await second.deposit(pending, pendingVerified.legData);
    expect(await second.balanceOf(address, usdc)).toBe(6_000n);
    await second.stop();

    const third = createSolanaLeg(context({ dataDir }));
    await third.start();
    expect(await third.balanceOf(address, usdc)).toBe(6_000n);
    await third.stop();
  });

  it("refuses to start from a snapshot litesvm cannot read, naming the file (never silently starts empty)", async () => {
    const broken = mkdtempSync(join(tmpdir(), "swapintent-solana-broken-"));
    try {
      writeFileSync(
        join(broken, "solana-litesvm.json"),
        JSON.stringify({ version: 1, litesvm: "0.0.0", records: { sequence: 0, intents: {} }, svm: "AAAA" }),
      );
      const leg = createSolanaLeg(context({ dataDir: broken }));
      await expect(leg.start()).rejects.toThrow(/solana-litesvm\.json.*delete it/);
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });

  it("an in-memory leg (no dataDir) starts fresh", async () => {
    const leg = createSolanaLeg(context());
    await leg.start();
    expect(await leg.balanceOf(Keypair.generate().publicKey.toBase58(), "USDC")).toBe(0n);
    await leg.stop();
  });
});

// Json is part of the leg contract; this keeps the import used for type checks of legData.
export type _LegData = Json;
