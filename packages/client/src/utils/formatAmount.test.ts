import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readLinearly } from "../../test/linearReads.js";
import { formatAmount } from "./formatAmount.js";
import { parseLots } from "./parseLots.js";

describe("formatAmount", () => {
  it("groups the integer part and trims trailing zeros", () => {
    expect(formatAmount({ value: 1234567890000n, decimals: 6 })).toBe("1,234,567.89");
    expect(formatAmount({ value: 100000000n, decimals: 8 })).toBe("1");
    expect(formatAmount({ value: 999n, decimals: 0 })).toBe("999");
    expect(formatAmount({ value: 1000n, decimals: 0 })).toBe("1,000");
  });

  it("truncates toward zero to maxFractionDigits, never rounding up", () => {
    expect(formatAmount({ value: 1999999n, decimals: 6, maxFractionDigits: 2 })).toBe("1.99");
    expect(formatAmount({ value: -1999999n, decimals: 6, maxFractionDigits: 2 })).toBe("-1.99");
    expect(formatAmount({ value: 1n, decimals: 18, maxFractionDigits: 4 })).toBe("0");
    expect(formatAmount({ value: -1n, decimals: 18, maxFractionDigits: 4 })).toBe("0");
  });

  it("pads to minFractionDigits and uses custom separators", () => {
    expect(formatAmount({ value: 1234500n, decimals: 3, minFractionDigits: 2 })).toBe("1,234.50");
    expect(
      formatAmount({
        value: 123456789n,
        decimals: 2,
        groupSeparator: ".",
        decimalSeparator: ",",
        minFractionDigits: 2,
      }),
    ).toBe("1.234.567,89");
    expect(formatAmount({ value: 123456789n, decimals: 2, groupSeparator: "" })).toBe("1234567.89");
  });

  it("refuses bad digit counts", () => {
    expect(() => formatAmount({ value: 1n, decimals: 2, maxFractionDigits: -1 })).toThrow(
      /maxFractionDigits/,
    );
    expect(() => formatAmount({ value: 1n, decimals: 2, minFractionDigits: 0.5 })).toThrow(
      /minFractionDigits/,
    );
  });

  it("without grouping or truncation, parses back to the same lots (property)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        fc.integer({ min: 0, max: 24 }),
        (lots, decimals) => {
          expect(
            parseLots({ value: formatAmount({ value: lots, decimals, groupSeparator: "" }), decimals }),
          ).toBe(lots);
        },
      ),
    );
  });

  it("grouped output only adds separators between triples (property)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.integer({ min: 0, max: 12 }),
        (lots, decimals) => {
          const grouped = formatAmount({ value: lots, decimals });
          const [whole = ""] = grouped.split(".");
          expect(whole).toMatch(/^\d{1,3}(,\d{3})*$/);
          expect(grouped.replaceAll(",", "")).toBe(
            formatAmount({ value: lots, decimals, groupSeparator: "" }),
          );
        },
      ),
    );
  });

  it("groups whole lots as ICU's en-US toLocaleString does (property), and a long number in one pass", async () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 90n), max: 10n ** 90n }), (lots) => {
        expect(formatAmount({ value: lots, decimals: 0 })).toBe(lots.toLocaleString("en-US"));
      }),
    );
    // a lookahead for the remaining triples at every digit is quadratic: 100 000 digits took 6.9 s. Each match
    // of such a lookahead is empty and reads to the end of the digits, so a replace-all over them reads the text
    // once per match; a pattern whose matches consume what they read reads it once.
    const digits = `9${"0".repeat(9_999)}`;
    const {
      value: grouped,
      reads,
      superLinear,
    } = await readLinearly(() => formatAmount({ value: BigInt(digits), decimals: 0, groupSeparator: "_" }));
    expect(superLinear).toEqual([]);
    const overDigits = reads.filter((read) => read.longest >= digits.length - 3);
    expect(overDigits.length).toBeGreaterThan(0);
    for (const read of overDigits)
      expect(read.consumed, `/${read.source}/${read.flags}`).toBeGreaterThanOrEqual(read.calls - 1);
    expect(grouped.replaceAll("_", "")).toBe(digits);
    expect(grouped).toMatch(/^\d(_\d{3})+$/);
  });

  it("inserts the separator as given, even one that looks like a replacement pattern", () => {
    for (const groupSeparator of ["$&", "$'", "$1", "\u00a0"]) {
      expect(formatAmount({ value: 1234567n, decimals: 0, groupSeparator })).toBe(
        `1${groupSeparator}234${groupSeparator}567`,
      );
    }
  });
});
