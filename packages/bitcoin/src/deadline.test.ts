import { verifyScripts as runInterpreter } from "@swapintent/testing/bitcore";
import { Psbt } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it, vi } from "vitest";
import { attempt, tamper } from "../test/attempt.js";
import { buildDeposit, type Deposit, hex, userKey } from "../test/fixtures.js";
import { isBitcoinError } from "./errors.js";
import { signHtlcPsbt } from "./signHtlcPsbt.js";
import { verifyHtlcPsbt } from "./verifyHtlcPsbt/verifyHtlcPsbt.js";

const userPublicKey = hex(userKey.publicKey);

describe("an intent whose deadline has passed (Bitcoin knows no deadline)", () => {
  const withDeadline = (deadlineSecs: unknown): Deposit => {
    const deposit = buildDeposit();
    return { ...deposit, intent: { ...deposit.intent, deadlineSecs: deadlineSecs as number } };
  };

  it("refuses a deadline in the past before the key is used, though the deposit it would sign is valid on chain", async () => {
    const past = withDeadline(Math.floor(Date.now() / 1000) - 1);
    expect(await attempt(past)).toEqual({ code: "BTC_DEADLINE_PASSED", uses: 0 });
    // The same deposit signed for an open intent passes bitcore's interpreter: nothing on chain would have
    // stopped the deposit signed for the expired one either.
    const open = withDeadline(Math.floor(Date.now() / 1000) + 600);
    const { psbt } = await signHtlcPsbt({ ecc, ...open, userPublicKey, signer: userKey });
    const txHex = Psbt.fromBase64(psbt).extractTransaction().toHex();
    expect(runInterpreter({ txHex, prevouts: open.prevouts })).toEqual([null, null]);
  });

  it("refuses a deadline that is not a non-negative integer of seconds (null in details)", async () => {
    for (const deadlineSecs of [undefined, null, "2000000000", Number.NaN, -1, 1.5e9 + 0.5, 2n ** 60n]) {
      expect(await attempt(withDeadline(deadlineSecs))).toEqual({ code: "BTC_DEADLINE_PASSED", uses: 0 });
    }
    // without nowMs the clock compared with is the machine's own: a fixed instant, so the report is exact
    const machineNowMs = 1_750_000_123_456;
    vi.useFakeTimers({ toFake: ["Date"], now: machineNowMs });
    try {
      verifyHtlcPsbt({ ecc, ...withDeadline("soon"), userPublicKey });
      expect.unreachable();
    } catch (error) {
      if (!isBitcoinError(error, "BTC_DEADLINE_PASSED")) throw error;
      expect(error.details.deadlineSecs).toBeNull();
      expect(error.details.nowMs).toBe(machineNowMs);
    } finally {
      vi.useRealTimers();
    }
  });

  it("reports the deadline and the clock it was compared with", () => {
    const machineNowMs = 1_750_000_123_456;
    const deadlineSecs = Math.floor(machineNowMs / 1000) - 3_600;
    vi.useFakeTimers({ toFake: ["Date"], now: machineNowMs });
    try {
      verifyHtlcPsbt({ ecc, ...withDeadline(deadlineSecs), userPublicKey });
      expect.unreachable();
    } catch (error) {
      if (!isBitcoinError(error, "BTC_DEADLINE_PASSED")) throw error;
      expect(error.details.deadlineSecs).toBe(deadlineSecs);
      expect(error.details.nowMs).toBe(machineNowMs);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("the caller's clock (nowMs)", () => {
  const deadlineSecs = 1_800_000_000; // 2027-01-15
  const deposit = (() => {
    const d = buildDeposit();
    return { ...d, intent: { ...d.intent, deadlineSecs } };
  })();

  it("compares the deadline with nowMs when given, not with Date.now()", async () => {
    const before = await attempt({ ...deposit, nowMs: deadlineSecs * 1000 - 1 });
    const at = await attempt({ ...deposit, nowMs: deadlineSecs * 1000 });
    expect(before).toEqual({ code: "ACCEPTED", uses: 2 });
    expect(at).toEqual({ code: "BTC_DEADLINE_PASSED", uses: 0 });
  });

  it("compares a time locktime with nowMs too (two hours of median-time-past margin)", async () => {
    const nowMs = deadlineSecs * 1000 - 60_000;
    const locked = (locktime: number) =>
      tamper(deposit, (_psbt, tx) => {
        tx.locktime = locktime;
        tx.ins[0]!.sequence = 0xfffffffd;
      });
    const nowSecs = Math.floor(nowMs / 1000);
    expect(await attempt({ ...locked(nowSecs - 7_200), nowMs })).toEqual({ code: "ACCEPTED", uses: 2 });
    expect(await attempt({ ...locked(nowSecs - 7_199), nowMs })).toEqual({
      code: "BTC_TX_TIMELOCKED",
      uses: 0,
    });
  });

  it("refuses a nowMs that is not a non-negative integer of milliseconds", async () => {
    for (const nowMs of [Number.NaN, -1, 1.5, Number.POSITIVE_INFINITY, "0"]) {
      expect(await attempt({ ...deposit, nowMs: nowMs as number })).toEqual({
        code: "BTC_POLICY_INVALID",
        uses: 0,
      });
    }
  });
});
