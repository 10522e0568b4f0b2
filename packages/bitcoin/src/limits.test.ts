// Upper bounds on what a hostile service can make the user's coins wait for (the intent's deadline; the refund
// delay already has `maxCsvBlocks`), checked before the key is used.
import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { Psbt } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { attempt } from "../test/attempt.js";
import { buildDeposit, type Deposit, hex, p2trOf, userKey } from "../test/fixtures.js";
import { DEFAULT_HTLC_POLICY } from "./constants.js";
import { isBitcoinError } from "./errors.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import { verifyHtlcPsbt } from "./verifyHtlcPsbt/verifyHtlcPsbt.js";

const userPublicKey = hex(userKey.publicKey);
const NOW_MS = 1_790_000_000_000;
const nowSecs = NOW_MS / 1000;

function withDeadline(deadlineSecs: number, options: Parameters<typeof buildDeposit>[0] = {}): Deposit {
  const deposit = buildDeposit(options);
  return { ...deposit, intent: { ...deposit.intent, deadlineSecs } };
}

describe("the intent's deadline has an upper bound (policy.maxDeadlineSecs, default one day)", () => {
  it("refuses a deadline years ahead before the key is used, though the deposit is valid on chain", async () => {
    const far = withDeadline(nowSecs + 10 * 365 * 86_400);
    expect(await attempt({ ...far, nowMs: NOW_MS })).toEqual({ code: "BTC_DEADLINE_TOO_FAR", uses: 0 });
    // The same deposit, signed for an intent whose deadline is near, passes bitcore's interpreter: nothing on chain
    // would have bounded the far one either.
    const near = withDeadline(nowSecs + 1_800);
    const { psbt } = await signHtlcPsbt({ ecc, ...near, userPublicKey, signer: userKey, nowMs: NOW_MS });
    const txHex = Psbt.fromBase64(psbt).extractTransaction().toHex();
    expect(runInterpreter({ txHex, prevouts: near.prevouts })).toEqual([null, null]);
  });

  it("the default bound is one day, to the second, and reported with the deadline and the clock", async () => {
    expect(DEFAULT_HTLC_POLICY.maxDeadlineSecs).toBe(86_400);
    const at = withDeadline(nowSecs + 86_400);
    const over = withDeadline(nowSecs + 86_401);
    expect(await attempt({ ...at, nowMs: NOW_MS })).toEqual({ code: "ACCEPTED", uses: 2 });
    expect(await attempt({ ...over, nowMs: NOW_MS })).toEqual({ code: "BTC_DEADLINE_TOO_FAR", uses: 0 });
    try {
      verifyHtlcPsbt({ ecc, ...over, userPublicKey, nowMs: NOW_MS });
      expect.unreachable();
    } catch (error) {
      if (!isBitcoinError(error, "BTC_DEADLINE_TOO_FAR")) throw error;
      expect(error.details).toEqual({
        deadlineSecs: nowSecs + 86_401,
        nowMs: NOW_MS,
        maxDeadlineSecs: 86_400,
      });
    }
  });

  it("policy.maxDeadlineSecs moves the bound both ways; it must be a non-negative integer", async () => {
    const week = withDeadline(nowSecs + 7 * 86_400);
    expect(await attempt({ ...week, nowMs: NOW_MS })).toEqual({ code: "BTC_DEADLINE_TOO_FAR", uses: 0 });
    expect(await attempt({ ...week, nowMs: NOW_MS }, { maxDeadlineSecs: 7 * 86_400 })).toEqual({
      code: "ACCEPTED",
      uses: 2,
    });
    const tenMinutes = withDeadline(nowSecs + 601);
    expect(await attempt({ ...tenMinutes, nowMs: NOW_MS }, { maxDeadlineSecs: 600 })).toEqual({
      code: "BTC_DEADLINE_TOO_FAR",
      uses: 0,
    });
    for (const maxDeadlineSecs of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "86400", 86_400n, null]) {
      expect(
        await attempt({ ...week, nowMs: NOW_MS }, { maxDeadlineSecs: maxDeadlineSecs as number }),
      ).toEqual({ code: "BTC_POLICY_INVALID", uses: 0 });
    }
  });

  it("a deadline already passed is still BTC_DEADLINE_PASSED (checked first), whatever the bound", async () => {
    const past = withDeadline(nowSecs - 1);
    expect(await attempt({ ...past, nowMs: NOW_MS }, { maxDeadlineSecs: 0 })).toEqual({
      code: "BTC_DEADLINE_PASSED",
      uses: 0,
    });
  });

  it("the refund delay keeps its own bound: a CSV above maxCsvBlocks (default 1008, a week) is refused", async () => {
    const slow = withDeadline(nowSecs + 600, { csv: 1_009 });
    expect(await attempt({ ...slow, nowMs: NOW_MS })).toEqual({
      code: "BTC_HTLC_TIMELOCK_OUT_OF_BOUNDS",
      uses: 0,
    });
    const week = withDeadline(nowSecs + 600, { csv: 1_008 });
    expect(await attempt({ ...week, nowMs: NOW_MS })).toEqual({ code: "ACCEPTED", uses: 2 });
  });
});

describe("the fee is also bounded relative to the amount (policy.maxFeeBps, default 200: 2%)", () => {
  /** One P2TR coin of the user's paying `amount` into the HTLC, the rest minus `fee` back as change. */
  function swap(args: { amount: bigint; fee: bigint; coin?: bigint }): Deposit {
    const coin = args.coin ?? 100_000n;
    const deposit = withDeadline(nowSecs + 600, {
      inputs: [{ kind: "p2tr", value: coin }],
      htlcValue: args.amount,
      outputs: [{ script: p2trOf(userKey), value: coin - args.amount - args.fee }],
    });
    return { ...deposit, quote: { sourceAmountLots: args.amount } };
  }

  /** Absolute caps a wallet raised (50,000 sat, 200 sat/vB): the share cap still holds within them. */
  const WIDE = { maxFeeLots: 50_000n, maxFeeRateSatPerVbyte: 200n };

  it("refuses a 10,000-sat swap that burns 30,000 sat of fee, within raised absolute caps (50,000 sat, 200 sat/vB)", async () => {
    const burn = swap({ amount: 10_000n, fee: 30_000n });
    const verified = verifyHtlcPsbt({
      ecc,
      ...burn,
      userPublicKey,
      nowMs: NOW_MS,
      policy: { ...WIDE, maxFeeBps: 1_000_000 },
    });
    // The absolute caps alone let it through: 3x the amount, under 200 sat/vB of its estimated size.
    expect(verified.feeLots).toBe(30_000n);
    expect(verified.feeLots <= 200n * verified.estimatedVsize).toBe(true);
    expect(await attempt({ ...burn, nowMs: NOW_MS }, WIDE)).toEqual({ code: "BTC_FEE_TOO_HIGH", uses: 0 });
    try {
      verifyHtlcPsbt({ ecc, ...burn, userPublicKey, nowMs: NOW_MS, policy: WIDE });
      expect.unreachable();
    } catch (error) {
      if (!isBitcoinError(error, "BTC_FEE_TOO_HIGH")) throw error;
      expect(error.details).toMatchObject({ feeLots: 30_000n, maxFeeBps: 200, maxFeeLots: 50_000n });
    }
  });

  it("the default is 2% of the quoted amount, to the satoshi", async () => {
    expect(DEFAULT_HTLC_POLICY.maxFeeBps).toBe(200);
    const at = swap({ amount: 50_000n, fee: 1_000n });
    const over = swap({ amount: 50_000n, fee: 1_001n });
    expect(await attempt({ ...at, nowMs: NOW_MS })).toEqual({ code: "ACCEPTED", uses: 1 });
    expect(await attempt({ ...over, nowMs: NOW_MS })).toEqual({ code: "BTC_FEE_TOO_HIGH", uses: 0 });
  });

  it("policy.maxFeeBps moves the bound both ways; it must be a non-negative integer", async () => {
    const burn = swap({ amount: 10_000n, fee: 30_000n });
    expect(await attempt({ ...burn, nowMs: NOW_MS }, { ...WIDE, maxFeeBps: 30_000 })).toEqual({
      code: "ACCEPTED",
      uses: 1,
    });
    const modest = swap({ amount: 50_000n, fee: 1_000n });
    expect(await attempt({ ...modest, nowMs: NOW_MS })).toEqual({ code: "ACCEPTED", uses: 1 });
    expect(await attempt({ ...modest, nowMs: NOW_MS }, { maxFeeBps: 199 })).toEqual({
      code: "BTC_FEE_TOO_HIGH",
      uses: 0,
    });
    for (const maxFeeBps of [-1, 0.5, Number.NaN, "1000", 1_000n, null]) {
      expect(await attempt({ ...modest, nowMs: NOW_MS }, { maxFeeBps: maxFeeBps as number })).toEqual({
        code: "BTC_POLICY_INVALID",
        uses: 0,
      });
    }
  });

  it("a dust-sized swap cannot pay its own relay fee within the default share: refused unless the wallet raises the bound", async () => {
    const dust = swap({ amount: 1_000n, fee: 200n });
    expect(await attempt({ ...dust, nowMs: NOW_MS })).toEqual({ code: "BTC_FEE_TOO_HIGH", uses: 0 });
    expect(await attempt({ ...dust, nowMs: NOW_MS }, { maxFeeBps: 2_000 })).toEqual({
      code: "ACCEPTED",
      uses: 1,
    });
  });
});
