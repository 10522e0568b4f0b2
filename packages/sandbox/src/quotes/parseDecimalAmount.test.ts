import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseDecimalAmount } from "./parseDecimalAmount.js";

describe("parseDecimalAmount", () => {
  test.each([
    ["1", 6, 1_000000n],
    ["1.5", 6, 1_500000n],
    ["0.000001", 6, 1n],
    ["1.500000", 6, 1_500000n],
    ["1e-6", 6, 1n],
    ["2.5E3", 0, 2500n],
    ["0.123456789012345678", 18, 123456789012345678n],
    ["100", 0, 100n],
    [`${2n ** 256n - 1n}`, 0, 2n ** 256n - 1n],
    ["115792089237316195423570985008687907853269984665640564039457584007913129.639935", 6, 2n ** 256n - 1n],
  ])("%s with %i decimals is %s lots", (text, decimals, lots) => {
    expect(parseDecimalAmount({ text, decimals })).toEqual({ ok: true, lots });
  });

  test.each([
    ["0", "NOT_POSITIVE"],
    ["0.000", "NOT_POSITIVE"],
    ["-1", "NOT_POSITIVE"],
    ["0.0000001", "TOO_MANY_DECIMALS"],
    ["1e-7", "TOO_MANY_DECIMALS"],
    ["abc", "NOT_A_NUMBER"],
    ["1.", "NOT_A_NUMBER"],
    [".5", "NOT_A_NUMBER"],
    ["Infinity", "NOT_A_NUMBER"],
    ["NaN", "NOT_A_NUMBER"],
    ["1e400", "TOO_LARGE"],
    ["1e99999", "TOO_LARGE"],
    // Lots above 2^256-1 (no chain's amount holds them), though 78 digits long or shorter.
    ["115792089237316195423570985008687907853269984665640564039457584007913129.639936", "TOO_LARGE"],
    ["999999999999999999999999999999999999999999999999999999999999999999999999.999999", "TOO_LARGE"],
    ["1e72", "TOO_LARGE"],
  ])("%s is refused with %s", (text, problem) => {
    expect(parseDecimalAmount({ text, decimals: 6 })).toEqual({ ok: false, problem });
  });

  test("agrees with integer arithmetic on random lots and decimals", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.integer({ min: 0, max: 18 }),
        (lots, decimals) => {
          const s = lots.toString().padStart(decimals + 1, "0");
          const text = decimals === 0 ? s : `${s.slice(0, -decimals)}.${s.slice(-decimals)}`;
          expect(parseDecimalAmount({ text, decimals })).toEqual({ ok: true, lots });
        },
      ),
    );
  });
});
