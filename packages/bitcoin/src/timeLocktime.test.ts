import { describe, expect, it } from "vitest";
import { attempt, tamper } from "../test/attempt.js";
import { buildDeposit, p2trOf, userKey } from "../test/fixtures.js";

/** One user P2TR coin: HTLC 100,000 + change 9,000, fee 1,000. */
const single = () =>
  buildDeposit({
    inputs: [{ kind: "p2tr", value: 110_000n }],
    outputs: [{ script: p2trOf(userKey), value: 9_000n }],
  });

describe("a time locktime is checked against the chain's median time past, not the clock", () => {
  const withLocktime = (secondsAgo: number) =>
    tamper(single(), (_psbt, tx) => {
      tx.ins[0]!.sequence = 0xfffffffd;
      tx.locktime = Math.floor(Date.now() / 1000) - secondsAgo;
    });

  it("refuses a time locktime less than two hours ago (median time past lags the clock by about an hour)", async () => {
    for (const ago of [-60, 0, 60, 3_600, 7_000]) {
      expect(await attempt(withLocktime(ago))).toEqual({ code: "BTC_TX_TIMELOCKED", uses: 0 });
    }
  });

  it("accepts one more than two hours ago", async () => {
    expect((await attempt(withLocktime(7_300))).code).toBe("ACCEPTED");
  });
});
