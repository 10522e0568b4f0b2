// A block height and a time share fields in Bitcoin: nLockTime below 500,000,000 is a height and at or above it a
// unix time (BIP-65/113); a BIP-68 number is blocks unless bit 22 makes it 512-second units. A policy value on the
// wrong side of such a line does not mean what the caller wrote, so it is refused before anything is checked.
import { Psbt } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { buildDeposit, hex, userKey } from "../test/fixtures.js";
import { isBitcoinError } from "./errors.js";
import { type HtlcPolicyParameters, verifyHtlcPsbt } from "./index.js";

const userPublicKey = hex(userKey.publicKey);

/** The default deposit with `locktime` set and every input's sequence RBF (so the locktime is enforced). */
function lockedDeposit(locktime: number) {
  const deposit = buildDeposit();
  const psbt = Psbt.fromBase64(deposit.intent.paramsToSign.psbt);
  psbt.setLocktime(locktime);
  psbt.txInputs.forEach((_, i) => {
    psbt.setInputSequence(i, 0xfffffffd);
  });
  deposit.intent.paramsToSign.psbt = psbt.toBase64();
  return deposit;
}

function codeOf(args: { policy: HtlcPolicyParameters; locktime?: number }): string {
  const deposit = args.locktime === undefined ? buildDeposit() : lockedDeposit(args.locktime);
  try {
    verifyHtlcPsbt({ ecc, intent: deposit.intent, quote: deposit.quote, userPublicKey, policy: args.policy });
    return "ACCEPTED";
  } catch (error) {
    if (!isBitcoinError(error)) throw error;
    return error.code;
  }
}

describe("policy values on the wrong side of a height/time line are refused (BTC_POLICY_INVALID)", () => {
  it("maxLockTimeHeight of 500,000,000 or more is a unix time, not a height", () => {
    // A wallet that passes its clock in seconds by mistake would accept any height locktime, up to 499,999,999
    // (thousands of years away): a deposit the service can hold, signed, until a height of its choosing.
    const nowSecs = 1_790_000_000;
    for (const maxLockTimeHeight of [500_000_000, nowSecs, 0xffffffff]) {
      expect(codeOf({ policy: { maxLockTimeHeight }, locktime: 499_999_999 })).toBe("BTC_POLICY_INVALID");
      expect(codeOf({ policy: { maxLockTimeHeight } })).toBe("BTC_POLICY_INVALID");
    }
    // The largest height is still a height: a policy of it is read, and a locktime above it refused.
    expect(codeOf({ policy: { maxLockTimeHeight: 499_999_999 }, locktime: 900_000 })).toBe("ACCEPTED");
    expect(codeOf({ policy: { maxLockTimeHeight: 899_999 }, locktime: 900_000 })).toBe("BTC_TX_TIMELOCKED");
  });

  it("a CSV bound above 0xffff is no block count (bit 22 means 512-second units, bits 16-21 are ignored)", () => {
    for (const bound of [0x10000, 0x400000 | 144, 0x7fffffff]) {
      expect(codeOf({ policy: { maxCsvBlocks: bound } })).toBe("BTC_POLICY_INVALID");
      expect(codeOf({ policy: { minCsvBlocks: bound, maxCsvBlocks: bound } })).toBe("BTC_POLICY_INVALID");
    }
    expect(codeOf({ policy: { maxCsvBlocks: 0xffff } })).toBe("ACCEPTED");
  });

  it("maxDeadlineSecs of 500,000,000 or more is a unix time (an absolute deadline), not a window in seconds", () => {
    // `now + 3600` passed as the window would let any deadline within decades through.
    const absolute = Math.floor(Date.now() / 1000) + 3_600;
    expect(codeOf({ policy: { maxDeadlineSecs: absolute } })).toBe("BTC_POLICY_INVALID");
    expect(codeOf({ policy: { maxDeadlineSecs: 500_000_000 } })).toBe("BTC_POLICY_INVALID");
    expect(codeOf({ policy: { maxDeadlineSecs: 499_999_999 } })).toBe("ACCEPTED");
  });

  it("a time locktime is judged against the clock, never against maxLockTimeHeight", () => {
    // 500,000,000 is 1985-11-05: a past time, final whatever the height cap.
    expect(codeOf({ policy: { maxLockTimeHeight: 1 }, locktime: 500_000_000 })).toBe("ACCEPTED");
    // A time an hour ahead is refused even with the largest height cap.
    const future = Math.floor(Date.now() / 1000) + 3_600;
    expect(codeOf({ policy: { maxLockTimeHeight: 499_999_999 }, locktime: future })).toBe(
      "BTC_TX_TIMELOCKED",
    );
  });
});

describe("a deadline or clock in the wrong unit fails safe (already refused; pinned)", () => {
  const verifyWith = (args: { deadlineSecs?: number; nowMs?: number }) => {
    const deposit = buildDeposit();
    if (args.deadlineSecs !== undefined) deposit.intent.deadlineSecs = args.deadlineSecs;
    try {
      verifyHtlcPsbt({ ecc, intent: deposit.intent, quote: deposit.quote, userPublicKey, nowMs: args.nowMs });
      return "ACCEPTED";
    } catch (error) {
      if (!isBitcoinError(error)) throw error;
      return error.code;
    }
  };

  it("a block height as the deadline has passed; a deadline in milliseconds is too far", () => {
    expect(verifyWith({ deadlineSecs: 900_000 })).toBe("BTC_DEADLINE_PASSED");
    expect(verifyWith({ deadlineSecs: Date.now() + 1_800_000 })).toBe("BTC_DEADLINE_TOO_FAR");
  });

  it("a clock in seconds sees every deadline too far; one in microseconds sees it passed", () => {
    expect(verifyWith({ nowMs: Math.floor(Date.now() / 1000) })).toBe("BTC_DEADLINE_TOO_FAR");
    expect(verifyWith({ nowMs: Date.now() * 1000 })).toBe("BTC_DEADLINE_PASSED");
  });
});
