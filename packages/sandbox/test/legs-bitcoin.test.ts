import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signHtlcPsbt, signHtlcRefund } from "@swapintent/bitcoin";
import type { Intent } from "@swapintent/client";
import { address, crypto, networks, Psbt, payments, script, Transaction } from "bitcoinjs-lib";
import { ECPairFactory } from "ecpair";
import * as ecc from "tiny-secp256k1";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { type BitcoinLeg, createBitcoinLeg } from "../src/legs/bitcoin/index.js";
import type { LegIntent } from "../src/legs/types.js";
import { catchLegRejection } from "./legs-evm-helpers.js";

const ECPair = ECPairFactory(ecc);
const user = ECPair.fromPrivateKey(new Uint8Array(32).fill(0x41));
const other = ECPair.fromPrivateKey(new Uint8Array(32).fill(0x42));
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const p2trAddress = (key: typeof user) =>
  payments.p2tr({ internalPubkey: key.publicKey.slice(1), network: networks.regtest }).address!;
const p2wpkhAddress = (key: typeof user) =>
  payments.p2wpkh({ pubkey: key.publicKey, network: networks.regtest }).address!;

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const clock = { now: T0, nowMs: () => clock.now };
const dirs: string[] = [];

function makeLeg(dataDir?: string): BitcoinLeg {
  return createBitcoinLeg({
    network: {
      id: 4,
      name: "Sandbox Bitcoin",
      type: "BITCOIN",
      supportsOptimizedSwap: false,
      supportsCustomTokens: false,
      iconUrl: "",
    },
    clock,
    dataDir,
    seed: new Uint8Array(32).fill(9),
    log: () => {},
  });
}

function makeIntent(args: { amount: bigint; source?: string; secret?: Uint8Array; id?: string }) {
  const secret = args.secret ?? globalThis.crypto.getRandomValues(new Uint8Array(32));
  const intent: LegIntent = {
    intentId: args.id ?? globalThis.crypto.randomUUID(),
    sourceToken: "btc",
    sourceAmountLots: args.amount,
    destChain: 1,
    destToken: "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE",
    minDestAmountLots: 1n,
    maxDestAmountLots: 2n,
    userSourceAddress: args.source ?? p2trAddress(user),
    userSourcePublicKey: hex(user.publicKey),
    userDestinationAddress: "0x0000000000000000000000000000000000000001",
    refundAddress: p2wpkhAddress(user),
    secretHash: `0x${hex(crypto.sha256(secret))}`,
    deadlineSecs: Math.floor(T0 / 1000) + 3600,
  };
  return { intent, secret };
}

/** The user's side, through the signer package (verify, then sign). */
async function userSigns(leg: BitcoinLeg, intent: LegIntent, paramsToSign: unknown) {
  const params = paramsToSign as { psbt: string; inputs: number[] };
  const clientIntent: Intent = {
    intentId: intent.intentId,
    deadlineSecs: intent.deadlineSecs,
    secretHash: intent.secretHash,
    approvalMechanism: "htlc",
    paramsToSign: params,
  };
  return signHtlcPsbt({
    ecc,
    intent: clientIntent,
    quote: { sourceAmountLots: intent.sourceAmountLots },
    userPublicKey: hex(user.publicKey),
    signer: user,
    // This user's wallet watches both scripts of its one key: it pins its source address's type for the change
    // (unpinned, the signer wants change of the type the coins spent are of).
    policy: {
      resolverPublicKey: leg.resolverPublicKey(),
      changeScriptType: intent.userSourceAddress === p2wpkhAddress(user) ? "p2wpkh" : "p2tr",
    },
    // The wallet signs at T0, within every intent's deadline; the leg's clock moves on by itself in these tests.
    nowMs: T0,
  });
}

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("Bitcoin leg: addresses, tokens, info", () => {
  const leg = makeLeg();
  it("accepts regtest bech32 P2WPKH and bech32m P2TR only", async () => {
    await leg.start();
    expect(leg.isValidAddress(p2trAddress(user))).toBe(true);
    expect(leg.isValidAddress(p2wpkhAddress(user))).toBe(true);
    expect(leg.isValidAddress(p2trAddress(user).toUpperCase())).toBe(true);
    const mainnet = payments.p2wpkh({ pubkey: user.publicKey, network: networks.bitcoin }).address!;
    const testnet = payments.p2tr({ internalPubkey: user.publicKey.slice(1), network: networks.testnet })
      .address!;
    const p2wsh = payments.p2wsh({ redeem: { output: Uint8Array.from([0x51]) }, network: networks.regtest })
      .address!;
    const p2pkh = payments.p2pkh({ pubkey: user.publicKey, network: networks.regtest }).address!;
    expect(
      [mainnet, testnet, p2wsh, p2pkh, "bcrt1qnotanaddress", ""].map((a) => leg.isValidAddress(a)),
    ).toEqual([false, false, false, false, false, false]);
  });

  it("matches a public key to its P2TR (BIP-86) and P2WPKH addresses only", () => {
    const key = hex(user.publicKey);
    expect(leg.publicKeyMatchesAddress(p2trAddress(user), key)).toBe(true);
    expect(leg.publicKeyMatchesAddress(p2wpkhAddress(user), key)).toBe(true);
    expect(leg.publicKeyMatchesAddress(p2trAddress(other), key)).toBe(false);
    expect(leg.publicKeyMatchesAddress(p2trAddress(user), null)).toBe(false);
    expect(leg.publicKeyMatchesAddress(p2trAddress(user), "02".padEnd(66, "0"))).toBe(false);
  });

  it("lists BTC and reports the engine facts", () => {
    expect(leg.tokens()).toEqual([
      {
        symbol: "BTC",
        name: "Bitcoin",
        decimals: 8,
        contractAddress: "btc",
        wrappedTokenAddress: null,
        iconUrl: "",
      },
    ]);
    const info = leg.info();
    expect(info.engine).toBe("bitcore-lib interpreter + sandbox UTXO ledger");
    expect(info.network).toBe("regtest");
    expect(info.tokens).toEqual({ BTC: "btc" });
    expect(info.height).toBe(leg.height());
    expect(info.numsInternalKey).toBe("50929b74c1a04954b78b4b6035e97a5e078a5a0f28ec96d547bfee9ace803ac0");
    expect(info.resolverPublicKey).toBe(leg.resolverPublicKey());
    expect(String(info.resolverAddress).startsWith("bcrt1q")).toBe(true);
  });
});

describe("Bitcoin leg: ledger and clock", () => {
  beforeEach(() => {
    clock.now = T0;
  });

  it("derives the height from the clock: one block per 10 minutes", async () => {
    const leg = makeLeg();
    await leg.start();
    const h0 = leg.height();
    clock.now += 10 * 60_000 - 1;
    expect(leg.height()).toBe(h0);
    clock.now += 1;
    expect(leg.height()).toBe(h0 + 1);
    clock.now += 144 * 10 * 60_000;
    expect(leg.height()).toBe(h0 + 145);
  });

  it("faucet creates spendable UTXOs with a real txid; balances follow", async () => {
    const leg = makeLeg();
    await leg.start();
    const addr = p2wpkhAddress(user);
    expect(await leg.balanceOf(addr, "btc")).toBe(0n);
    const a = await leg.faucet({ address: addr, token: "btc", amountLots: 70_000n });
    const b = await leg.faucet({ address: addr, token: "BTC", amountLots: 30_000n });
    expect(a.txHash).toMatch(/^[0-9a-f]{64}$/);
    expect(b.txHash).not.toBe(a.txHash);
    expect(await leg.balanceOf(addr, "btc")).toBe(100_000n);
    expect(
      (await catchLegRejection(leg.faucet({ address: "bc1qnope", token: "btc", amountLots: 1n }))).code,
    ).toBe("ADDRESS_INVALID");
    expect((await catchLegRejection(leg.balanceOf(addr, "eth"))).code).toBe("TOKEN_UNKNOWN");
    expect(await leg.inventory("btc")).toBe(1_000_000_000n);
  });

  it("faucet refuses more than 21,000,000 BTC (AMOUNT_INVALID): an output value is an int64, never a 500", async () => {
    const leg = makeLeg();
    await leg.start();
    const addr = p2wpkhAddress(user);
    for (const amountLots of [2_100_000_000_000_001n, 2n ** 63n, 2n ** 256n - 1n])
      expect((await catchLegRejection(leg.faucet({ address: addr, token: "btc", amountLots }))).code).toBe(
        "AMOUNT_INVALID",
      );
    expect(await leg.balanceOf(addr, "btc")).toBe(0n);
    await leg.faucet({ address: addr, token: "btc", amountLots: 2_100_000_000_000_000n });
    expect(await leg.balanceOf(addr, "btc")).toBe(2_100_000_000_000_000n);
  });
});

describe("Bitcoin leg: deposit, claim, deliver, refund", () => {
  beforeEach(() => {
    clock.now = T0;
  });

  it("builds a deposit the signer package accepts; verifies, deposits (idempotent) and claims it", async () => {
    const leg = makeLeg();
    await leg.start();
    await leg.faucet({ address: p2trAddress(user), token: "btc", amountLots: 60_000n });
    await leg.faucet({ address: p2wpkhAddress(user), token: "btc", amountLots: 70_000n });
    const { intent, secret } = makeIntent({ amount: 100_000n });
    const built = await leg.buildApproval(intent);
    const params = built.paramsToSign as { psbt: string; inputs: number[] };
    expect(params.inputs).toEqual([0, 1]);

    const signed = await userSigns(leg, intent, built.paramsToSign);
    expect(signed.verified.htlc.csvBlocks).toBe(144);
    expect(signed.verified.inputs.map((i) => i.kind).sort()).toEqual(["p2tr", "p2wpkh"]);
    // The P2WPKH input carries its previous transaction, the P2TR input none.
    const unsigned = Psbt.fromBase64(params.psbt);
    const p2wpkhScript = hex(payments.p2wpkh({ pubkey: user.publicKey }).output!);
    expect(
      unsigned.data.inputs.map((input) => [
        hex(input.witnessUtxo!.script) === p2wpkhScript,
        !!input.nonWitnessUtxo,
      ]),
    ).toEqual(
      unsigned.data.inputs.map((input) => [
        hex(input.witnessUtxo!.script) === p2wpkhScript,
        hex(input.witnessUtxo!.script) === p2wpkhScript,
      ]),
    );

    const verified = await leg.verifyApproval(intent, built.legData, {
      type: "psbt",
      signedData: signed.psbt,
    });
    const inventoryBefore = await leg.inventory("btc");
    const deposit = await leg.deposit(intent, verified.legData);
    expect(deposit.txHash).toBe(Psbt.fromBase64(signed.psbt).extractTransaction().getId());
    expect((await leg.deposit(intent, verified.legData)).txHash).toBe(deposit.txHash);

    const change = 130_000n - 100_000n - signed.verified.feeLots;
    expect(await leg.balanceOf(p2trAddress(user), "btc")).toBe(change);
    expect(await leg.balanceOf(p2wpkhAddress(user), "btc")).toBe(0n);
    const htlcAddress = address.fromOutputScript(signed.verified.htlc.script, networks.regtest);
    expect(await leg.balanceOf(htlcAddress, "btc")).toBe(100_000n);

    const wrong = await catchLegRejection(leg.claim(intent, deposit.legData, new Uint8Array(32)));
    expect(wrong.code).toBe("SECRET_INVALID");
    const claim = await leg.claim(intent, deposit.legData, secret);
    expect(await leg.balanceOf(htlcAddress, "btc")).toBe(0n);
    expect(await leg.inventory("btc")).toBeGreaterThan(inventoryBefore + 99_000n);
    expect((await leg.claim(intent, deposit.legData, secret)).txHash).toBe(claim.txHash);
  });

  it("refuses a flipped signature byte, another transaction, an unsigned PSBT and a spent input", async () => {
    const leg = makeLeg();
    await leg.start();
    await leg.faucet({ address: p2trAddress(user), token: "btc", amountLots: 150_000n });
    const { intent } = makeIntent({ amount: 100_000n });
    const built = await leg.buildApproval(intent);
    const signed = await userSigns(leg, intent, built.paramsToSign);

    const flipped = Psbt.fromBase64(signed.psbt);
    const witness = flipped.data.inputs[0]!.finalScriptWitness!;
    witness[5] = witness[5]! ^ 0x01;
    const bad = await catchLegRejection(
      leg.verifyApproval(intent, built.legData, { type: "psbt", signedData: flipped.toBase64() }),
    );
    expect(bad.code).toBe("PSBT_REJECTED");
    expect(bad.reason).toMatch(/interpreter/);

    const unsigned = await catchLegRejection(
      leg.verifyApproval(intent, built.legData, {
        type: "psbt",
        signedData: (built.paramsToSign as { psbt: string }).psbt,
      }),
    );
    expect(unsigned.code).toBe("PSBT_REJECTED");

    const changed = Psbt.fromBase64((built.paramsToSign as { psbt: string }).psbt);
    changed.setLocktime(1);
    expect(
      (
        await catchLegRejection(
          leg.verifyApproval(intent, built.legData, { type: "psbt", signedData: changed.toBase64() }),
        )
      ).code,
    ).toBe("PSBT_REJECTED");
    expect(
      (
        await catchLegRejection(
          leg.verifyApproval(intent, built.legData, { type: "permit2", signedData: "0x00" }),
        )
      ).code,
    ).toBe("APPROVAL_INVALID");

    // Once the first intent's reservation lapses, a second intent spends the same UTXO first: the first
    // approval is then refused.
    clock.now = (intent.deadlineSecs + 1) * 1000;
    const second = makeIntent({ amount: 100_000n });
    const built2 = await leg.buildApproval(second.intent);
    const signed2 = await userSigns(leg, second.intent, built2.paramsToSign);
    const v2 = await leg.verifyApproval(second.intent, built2.legData, {
      type: "psbt",
      signedData: signed2.psbt,
    });
    await leg.deposit(second.intent, v2.legData);
    expect(
      (
        await catchLegRejection(
          leg.verifyApproval(intent, built.legData, { type: "psbt", signedData: signed.psbt }),
        )
      ).code,
    ).toBe("UTXO_SPENT");
  });

  it("gives two open intents of the same user different coins, until the first one's deadline", async () => {
    const leg = makeLeg();
    await leg.start();
    await leg.faucet({ address: p2trAddress(user), token: "btc", amountLots: 120_000n });
    await leg.faucet({ address: p2trAddress(user), token: "btc", amountLots: 125_000n });
    const a = makeIntent({ amount: 100_000n });
    const b = makeIntent({ amount: 100_000n });
    const builtA = await leg.buildApproval(a.intent);
    const builtB = await leg.buildApproval(b.intent);
    const outpoints = (built: { legData: unknown }) =>
      (built.legData as { prevouts: { txid: string; vout: number }[] }).prevouts.map(
        (p) => `${p.txid}:${p.vout}`,
      );
    expect(outpoints(builtA)).toHaveLength(1);
    expect(outpoints(builtB)).toHaveLength(1);
    expect(outpoints(builtB)).not.toEqual(outpoints(builtA));
    // Building again for the same intent keeps its own coins.
    expect(outpoints(await leg.buildApproval(a.intent))).toEqual(outpoints(builtA));
    // A third intent finds nothing free; after the deadlines pass the coins are free again.
    expect((await catchLegRejection(leg.buildApproval(makeIntent({ amount: 100_000n }).intent))).code).toBe(
      "INSUFFICIENT_BALANCE",
    );
    clock.now = (a.intent.deadlineSecs + 1) * 1000;
    expect(outpoints(await leg.buildApproval(makeIntent({ amount: 100_000n }).intent))).toHaveLength(1);
    for (const [x, built] of [
      [a, builtA],
      [b, builtB],
    ] as const) {
      const signed = await userSigns(leg, x.intent, built.paramsToSign);
      const v = await leg.verifyApproval(x.intent, built.legData, { type: "psbt", signedData: signed.psbt });
      await leg.deposit(x.intent, v.legData);
    }
  });

  it("refuses to build a deposit the user cannot fund, or for a key that does not own the address", async () => {
    const leg = makeLeg();
    await leg.start();
    await leg.faucet({ address: p2trAddress(user), token: "btc", amountLots: 1_000n });
    expect((await catchLegRejection(leg.buildApproval(makeIntent({ amount: 100_000n }).intent))).code).toBe(
      "INSUFFICIENT_BALANCE",
    );
    const foreign = makeIntent({ amount: 100_000n, source: p2trAddress(other) });
    expect((await catchLegRejection(leg.buildApproval(foreign.intent))).code).toBe("PUBLIC_KEY_MISMATCH");
  });

  it("delivers from the resolver's inventory with a signed, interpreter-checked transaction (idempotent)", async () => {
    const leg = makeLeg();
    await leg.start();
    const before = await leg.inventory("btc");
    const recipient = p2trAddress(other);
    const request = { intentId: "d-1", token: "btc", recipient, amountLots: 12_345n };
    const first = await leg.deliver(request);
    expect(await leg.balanceOf(recipient, "btc")).toBe(12_345n);
    expect((await leg.deliver(request)).txHash).toBe(first.txHash);
    expect(await leg.balanceOf(recipient, "btc")).toBe(12_345n);
    const spent = before - (await leg.inventory("btc"));
    expect(spent > 12_345n && spent < 12_345n + 1_000n).toBe(true);
    expect(
      (await catchLegRejection(leg.deliver({ ...request, intentId: "d-2", amountLots: 10_000_000_000n })))
        .code,
    ).toBe("INSUFFICIENT_INVENTORY");
  });

  it("refunds a deposited intent by paying the user from inventory (idempotent); refuses one never deposited", async () => {
    const leg = makeLeg();
    await leg.start();
    await leg.faucet({ address: p2trAddress(user), token: "btc", amountLots: 80_000n });
    const { intent } = makeIntent({ amount: 50_000n });
    const built = await leg.buildApproval(intent);
    expect((await catchLegRejection(leg.refund(intent, built.legData))).code).toBe("NOT_DEPOSITED");
    const signed = await userSigns(leg, intent, built.paramsToSign);
    const verified = await leg.verifyApproval(intent, built.legData, {
      type: "psbt",
      signedData: signed.psbt,
    });
    const deposit = await leg.deposit(intent, verified.legData);
    const inventory = await leg.inventory("btc");
    const refund = await leg.refund(intent, deposit.legData);
    expect(await leg.balanceOf(intent.refundAddress, "btc")).toBe(50_000n);
    expect((await leg.refund(intent, deposit.legData)).txHash).toBe(refund.txHash);
    expect(await leg.balanceOf(intent.refundAddress, "btc")).toBe(50_000n);
    const paid = inventory - (await leg.inventory("btc"));
    expect(paid > 50_000n && paid < 51_000n).toBe(true);
  });

  it("refuses to refund a claimed HTLC and to claim one the user took back", async () => {
    const leg = makeLeg();
    await leg.start();
    await leg.faucet({ address: p2trAddress(user), token: "btc", amountLots: 300_000n });
    const a = makeIntent({ amount: 50_000n });
    const builtA = await leg.buildApproval(a.intent);
    const signedA = await userSigns(leg, a.intent, builtA.paramsToSign);
    const vA = await leg.verifyApproval(a.intent, builtA.legData, { type: "psbt", signedData: signedA.psbt });
    const dA = await leg.deposit(a.intent, vA.legData);
    await leg.claim(a.intent, dA.legData, a.secret);
    expect((await catchLegRejection(leg.refund(a.intent, dA.legData))).code).toBe("ALREADY_CLAIMED");

    const b = makeIntent({ amount: 50_000n });
    const builtB = await leg.buildApproval(b.intent);
    const signedB = await userSigns(leg, b.intent, builtB.paramsToSign);
    const vB = await leg.verifyApproval(b.intent, builtB.legData, { type: "psbt", signedData: signedB.psbt });
    const dB = await leg.deposit(b.intent, vB.legData);
    const own = await signHtlcRefund({
      ecc,
      depositPsbt: signedB.psbt,
      userPublicKey: hex(user.publicKey),
      signer: user,
      feeLots: 500n,
    });
    clock.now += 144 * 10 * 60_000;
    await leg.broadcast(own.txHex);
    expect((await catchLegRejection(leg.claim(b.intent, dB.legData, b.secret))).code).toBe("HTLC_SPENT");
    expect((await leg.refund(b.intent, dB.legData)).txHash).toBe(Transaction.fromHex(own.txHex).getId());
  });

  it("lets the user take the HTLC back through the refund leaf only after the CSV delay", async () => {
    const leg = makeLeg();
    await leg.start();
    await leg.faucet({ address: p2wpkhAddress(user), token: "btc", amountLots: 150_000n });
    const { intent } = makeIntent({ amount: 100_000n });
    const built = await leg.buildApproval(intent);
    const signed = await userSigns(leg, intent, built.paramsToSign);
    const v = await leg.verifyApproval(intent, built.legData, { type: "psbt", signedData: signed.psbt });
    await leg.deposit(intent, v.legData);

    const refund = await signHtlcRefund({
      ecc,
      depositPsbt: signed.psbt,
      userPublicKey: hex(user.publicKey),
      signer: user,
      feeLots: 500n,
    });
    clock.now += 143 * 10 * 60_000;
    const early = await catchLegRejection(leg.broadcast(refund.txHex));
    expect(early.code).toBe("TX_NOT_FINAL");
    clock.now += 10 * 60_000;
    const done = await leg.broadcast(refund.txHex);
    expect(done.txHash).toBe(Transaction.fromHex(refund.txHex).getId());
    // The deposit's change and the refunded HTLC (minus the refund's fee) both pay the user's P2TR address.
    expect(await leg.balanceOf(p2trAddress(user), "btc")).toBe(
      150_000n - 100_000n - signed.verified.feeLots + 99_500n,
    );
    const again = await signHtlcRefund({
      ecc,
      depositPsbt: signed.psbt,
      userPublicKey: hex(user.publicKey),
      signer: user,
      feeLots: 700n,
    });
    expect((await catchLegRejection(leg.broadcast(again.txHex))).code).toBe("UTXO_SPENT");
  });
});

describe("Bitcoin leg: broadcast and BIP-68", () => {
  beforeEach(() => {
    clock.now = T0;
  });

  /** A version-2 spend of the user's P2WPKH faucet output with the given nSequence, signed by the user. */
  async function spendWithSequence(leg: BitcoinLeg, sequence: number, locktime = 0) {
    const addr = p2wpkhAddress(user);
    const faucet = await leg.faucet({ address: addr, token: "btc", amountLots: 10_000n });
    const script = address.toOutputScript(addr, networks.regtest);
    const psbt = new Psbt({ network: networks.regtest });
    psbt.setVersion(2);
    psbt.setLocktime(locktime);
    psbt.addInput({ hash: faucet.txHash, index: 0, sequence, witnessUtxo: { script, value: 10_000n } });
    psbt.addOutput({ address: p2trAddress(other), value: 9_000n });
    psbt.signInput(0, user);
    psbt.finalizeAllInputs();
    return psbt.extractTransaction().toHex();
  }

  it("holds a block-based relative lock until enough blocks have passed", async () => {
    const leg = makeLeg();
    await leg.start();
    const tx = await spendWithSequence(leg, 3);
    clock.now += 2 * 10 * 60_000;
    expect((await catchLegRejection(leg.broadcast(tx))).code).toBe("TX_NOT_FINAL");
    clock.now += 10 * 60_000;
    await leg.broadcast(tx);
    expect(await leg.balanceOf(p2trAddress(other), "btc")).toBe(9_000n);
  });

  it("holds a time-based relative lock (512-second units) until the clock passes it", async () => {
    const leg = makeLeg();
    await leg.start();
    const tx = await spendWithSequence(leg, (1 << 22) | 2);
    clock.now += 1_023_000;
    expect((await catchLegRejection(leg.broadcast(tx))).code).toBe("TX_NOT_FINAL");
    clock.now += 1_000;
    await leg.broadcast(tx);
    expect(await leg.balanceOf(p2trAddress(other), "btc")).toBe(9_000n);
  });

  it("holds an absolute nLockTime (height) until the chain is past it", async () => {
    const leg = makeLeg();
    await leg.start();
    const tx = await spendWithSequence(leg, 0xfffffffe, leg.height() + 2);
    // Final once the next block's height exceeds the lock: at tip height + 2.
    clock.now += 10 * 60_000;
    expect((await catchLegRejection(leg.broadcast(tx))).code).toBe("TX_NOT_FINAL");
    clock.now += 10 * 60_000;
    await leg.broadcast(tx);
    expect(await leg.balanceOf(p2trAddress(other), "btc")).toBe(9_000n);
  });

  it("refuses a spend whose signature the interpreter rejects, and garbage", async () => {
    const leg = makeLeg();
    await leg.start();
    const tx = Transaction.fromHex(await spendWithSequence(leg, 0xffffffff));
    const sig = tx.ins[0]!.witness[0]!;
    sig[8] = sig[8]! ^ 0x01;
    const refused = await catchLegRejection(leg.broadcast(tx.toHex()));
    expect(refused.code).toBe("PSBT_REJECTED");
    expect(refused.reason).toMatch(/SCRIPT_ERR/);
    expect((await catchLegRejection(leg.broadcast("00"))).code).toBe("TX_INVALID");
    // A correctly signed spend that pays out more than it spends creates money: refused.
    const addr = p2wpkhAddress(user);
    const faucet = await leg.faucet({ address: addr, token: "btc", amountLots: 1_000n });
    // Signed by hand: bitcoinjs' PSBT refuses to sign a transaction whose outputs exceed its inputs.
    const inflate = new Transaction();
    inflate.version = 2;
    inflate.addInput(Buffer.from(faucet.txHash, "hex").reverse(), 0);
    inflate.addOutput(address.toOutputScript(p2trAddress(other), networks.regtest), 5_000n);
    const scriptCode = payments.p2pkh({ pubkey: user.publicKey }).output!;
    const sighash = inflate.hashForWitnessV0(0, scriptCode, 1_000n, Transaction.SIGHASH_ALL);
    inflate.setWitness(0, [
      script.signature.encode(user.sign(sighash), Transaction.SIGHASH_ALL),
      user.publicKey,
    ]);
    expect((await catchLegRejection(leg.broadcast(inflate.toHex()))).code).toBe("TX_VALUE_INVALID");
  });

  it("accepts an approval whose inputs are signed but not finalized (it finalizes them)", async () => {
    const leg = makeLeg();
    await leg.start();
    await leg.faucet({ address: p2wpkhAddress(user), token: "btc", amountLots: 120_000n });
    const { intent } = makeIntent({ amount: 100_000n });
    const built = await leg.buildApproval(intent);
    const psbt = Psbt.fromBase64((built.paramsToSign as { psbt: string }).psbt);
    psbt.signInput(0, user);
    const verified = await leg.verifyApproval(intent, built.legData, {
      type: "psbt",
      signedData: psbt.toBase64(),
    });
    const deposit = await leg.deposit(intent, verified.legData);
    expect(deposit.txHash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("Bitcoin leg: durability", () => {
  it("keeps UTXOs, the resolver key and the genesis across a restart on the same dataDir", async () => {
    clock.now = T0;
    const dir = mkdtempSync(join(tmpdir(), "btc-leg-"));
    dirs.push(dir);
    const first = makeLeg(dir);
    await first.start();
    await first.faucet({ address: p2trAddress(user), token: "btc", amountLots: 42_000n });
    await first.deliver({ intentId: "x", token: "btc", recipient: p2wpkhAddress(other), amountLots: 1_000n });
    const inventory = await first.inventory("btc");
    const resolver = first.resolverPublicKey();
    clock.now += 30 * 60_000;
    const height = first.height();
    await first.stop();

    const second = makeLeg(dir);
    await second.start();
    expect(second.resolverPublicKey()).toBe(resolver);
    expect(second.height()).toBe(height);
    expect(await second.balanceOf(p2trAddress(user), "btc")).toBe(42_000n);
    expect(await second.balanceOf(p2wpkhAddress(other), "btc")).toBe(1_000n);
    expect(await second.inventory("btc")).toBe(inventory);
    await second.stop();
  });
});

describe("Bitcoin leg: deposit PSBTs carry previous transactions for segwit v0 inputs", () => {
  beforeEach(() => {
    clock.now = T0;
  });

  /** Check each P2WPKH input's nonWitnessUtxo with bitcoinjs: it hashes to the outpoint and holds the witnessUtxo. */
  function expectPreviousTransactions(psbtBase64: string) {
    const psbt = Psbt.fromBase64(psbtBase64);
    const p2wpkh = hex(payments.p2wpkh({ pubkey: user.publicKey }).output!);
    psbt.data.inputs.forEach((input, i) => {
      const txInput = psbt.txInputs[i]!;
      if (hex(input.witnessUtxo!.script) !== p2wpkh) {
        expect(input.nonWitnessUtxo).toBeUndefined();
        return;
      }
      const previous = Transaction.fromBuffer(input.nonWitnessUtxo!);
      expect(hex(previous.getHash())).toBe(hex(txInput.hash));
      const out = previous.outs[txInput.index]!;
      expect(hex(out.script)).toBe(hex(input.witnessUtxo!.script));
      expect(out.value).toBe(input.witnessUtxo!.value);
    });
    // Valid now: no nLockTime, no BIP-68 relative lock (the disable flag is set in every sequence).
    expect(psbt.locktime).toBe(0);
    for (const txInput of psbt.txInputs) expect((txInput.sequence ?? 0) & 0x80000000).not.toBe(0);
    return psbt;
  }

  it("a P2WPKH-only user spending two coins gets a PSBT the signer signs; the leg verifies and deposits it", async () => {
    const leg = makeLeg();
    await leg.start();
    await leg.faucet({ address: p2wpkhAddress(user), token: "btc", amountLots: 70_000n });
    await leg.faucet({ address: p2wpkhAddress(user), token: "btc", amountLots: 50_000n });
    const { intent } = makeIntent({ amount: 100_000n, source: p2wpkhAddress(user) });
    const built = await leg.buildApproval(intent);
    const params = built.paramsToSign as { psbt: string; inputs: number[] };
    expect(params.inputs).toEqual([0, 1]);
    const psbt = expectPreviousTransactions(params.psbt);
    expect(psbt.data.inputs.every((input) => input.nonWitnessUtxo !== undefined)).toBe(true);

    const signed = await userSigns(leg, intent, params);
    expect(signed.verified.inputs.map((i) => i.kind)).toEqual(["p2wpkh", "p2wpkh"]);
    const verified = await leg.verifyApproval(intent, built.legData, {
      type: "psbt",
      signedData: signed.psbt,
    });
    const deposit = await leg.deposit(intent, verified.legData);
    expect(deposit.txHash).toBe(Psbt.fromBase64(signed.psbt).extractTransaction().getId());
    expect(await leg.balanceOf(p2wpkhAddress(user), "btc")).toBe(
      120_000n - 100_000n - signed.verified.feeLots,
    );
  });

  it("without the previous transactions the signer refuses that PSBT (BTC_NON_WITNESS_UTXO_REQUIRED)", async () => {
    const leg = makeLeg();
    await leg.start();
    await leg.faucet({ address: p2wpkhAddress(user), token: "btc", amountLots: 70_000n });
    await leg.faucet({ address: p2wpkhAddress(user), token: "btc", amountLots: 50_000n });
    const { intent } = makeIntent({ amount: 100_000n, source: p2wpkhAddress(user) });
    const built = await leg.buildApproval(intent);
    const params = built.paramsToSign as { psbt: string; inputs: number[] };
    const stripped = Psbt.fromBase64(params.psbt);
    for (const input of stripped.data.inputs) delete input.nonWitnessUtxo;
    await expect(
      userSigns(leg, intent, { psbt: stripped.toBase64(), inputs: params.inputs }),
    ).rejects.toMatchObject({ code: "BTC_NON_WITNESS_UTXO_REQUIRED" });
  });

  it("attaches no previous transaction to P2TR inputs (a P2TR-only PSBT stays small)", async () => {
    const leg = makeLeg();
    await leg.start();
    await leg.faucet({ address: p2trAddress(user), token: "btc", amountLots: 60_000n });
    await leg.faucet({ address: p2trAddress(user), token: "btc", amountLots: 70_000n });
    await leg.faucet({ address: p2wpkhAddress(user), token: "btc", amountLots: 5_000n });
    const { intent } = makeIntent({ amount: 100_000n });
    const built = await leg.buildApproval(intent);
    const psbt = expectPreviousTransactions((built.paramsToSign as { psbt: string }).psbt);
    expect(psbt.data.inputs).toHaveLength(2);
    expect(psbt.data.inputs.some((input) => input.nonWitnessUtxo)).toBe(false);
  });

  it("keeps raw transactions (faucet and applied spends) across a restart; a coin without one is not selected", async () => {
    const dir = mkdtempSync(join(tmpdir(), "btc-leg-raw-"));
    dirs.push(dir);
    const first = makeLeg(dir);
    await first.start();
    const minted = await first.faucet({ address: p2wpkhAddress(user), token: "btc", amountLots: 70_000n });
    // An applied spend (the resolver's delivery) creates the second coin.
    const delivered = await first.deliver({
      intentId: "raw",
      token: "btc",
      recipient: p2wpkhAddress(user),
      amountLots: 50_000n,
    });
    await first.stop();

    const second = makeLeg(dir);
    await second.start();
    const { intent } = makeIntent({ amount: 100_000n, source: p2wpkhAddress(user) });
    const built = await second.buildApproval(intent);
    const params = built.paramsToSign as { psbt: string; inputs: number[] };
    const psbt = expectPreviousTransactions(params.psbt);
    expect(
      psbt.data.inputs.map((input) => Transaction.fromBuffer(input.nonWitnessUtxo!).getId()).sort(),
    ).toEqual([minted.txHash, delivered.txHash].sort());
    const signed = await userSigns(second, intent, params);
    await second.verifyApproval(intent, built.legData, { type: "psbt", signedData: signed.psbt });
    await second.stop();

    // A ledger file whose `txs` lacks the delivery (or damaged bytes): it loads; that coin is left out.
    const file = join(dir, "bitcoin-ledger.json");
    const stored = JSON.parse(readFileSync(file, "utf8")) as { txs: Record<string, string> };
    delete stored.txs[delivered.txHash];
    writeFileSync(file, JSON.stringify(stored));
    clock.now += 3_601_000; // past the first intent's deadline: its coin reservations have ended
    const third = makeLeg(dir);
    await third.start();
    expect(await third.balanceOf(p2wpkhAddress(user), "btc")).toBe(120_000n);
    const small = makeIntent({ amount: 60_000n, source: p2wpkhAddress(user) });
    const only = Psbt.fromBase64(
      ((await third.buildApproval(small.intent)).paramsToSign as { psbt: string }).psbt,
    );
    expect(only.txInputs.map((i) => Buffer.from(i.hash).reverse().toString("hex"))).toEqual([minted.txHash]);
    const big = makeIntent({ amount: 100_000n, source: p2wpkhAddress(user) });
    expect((await catchLegRejection(third.buildApproval(big.intent))).code).toBe("INSUFFICIENT_BALANCE");
    await third.stop();

    // A file with no `txs` at all still loads.
    delete (stored as { txs?: unknown }).txs;
    writeFileSync(file, JSON.stringify(stored));
    const fourth = makeLeg(dir);
    await fourth.start();
    expect(await fourth.balanceOf(p2wpkhAddress(user), "btc")).toBe(120_000n);
    await fourth.stop();
  });
});
