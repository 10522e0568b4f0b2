import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatLots } from "./formatLots.js";

describe("formatLots", () => {
  it("formats lots as a plain decimal string with trailing zeros trimmed", () => {
    expect(formatLots({ value: 1500000n, decimals: 6 })).toBe("1.5");
    expect(formatLots({ value: 1n, decimals: 18 })).toBe("0.000000000000000001");
    expect(formatLots({ value: 0n, decimals: 8 })).toBe("0");
    expect(formatLots({ value: -225n, decimals: 2 })).toBe("-2.25");
    expect(formatLots({ value: 1000n, decimals: 0 })).toBe("1000");
    expect(formatLots({ value: 10n ** 30n, decimals: 6 })).toBe("1000000000000000000000000");
  });

  it("refuses a non-bigint value", () => {
    expect(() => formatLots({ value: 1 as unknown as bigint, decimals: 6 })).toThrow(
      /`value` must be a bigint/,
    );
  });

  it("agrees with a digit-by-digit reference for small values (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), fc.integer({ min: 0, max: 12 }), (lots, decimals) => {
        const text = formatLots({ value: BigInt(lots), decimals });
        const [whole = "", fraction = ""] = text.split(".");
        expect(BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0") || "0")).toBe(
          BigInt(lots),
        );
        expect(fraction.endsWith("0")).toBe(false);
      }),
    );
  });
});
