import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readLinearly } from "../../test/linearReads.js";
import { isSwapIntentError } from "../errors/swapIntentError.js";
import { formatLots } from "./formatLots.js";
import { parseLots } from "./parseLots.js";

describe("parseLots", () => {
  it("converts decimal strings to lots exactly", () => {
    expect(parseLots({ value: "1.5", decimals: 6 })).toBe(1500000n);
    expect(parseLots({ value: "0.000001", decimals: 6 })).toBe(1n);
    expect(parseLots({ value: "1000", decimals: 0 })).toBe(1000n);
    expect(parseLots({ value: ".5", decimals: 1 })).toBe(5n);
    expect(parseLots({ value: "7.", decimals: 2 })).toBe(700n);
    expect(parseLots({ value: "-2.25", decimals: 2 })).toBe(-225n);
    expect(parseLots({ value: "123456789012345678901234567890.123456789012345678", decimals: 18 })).toBe(
      123456789012345678901234567890123456789012345678n,
    );
  });

  it("accepts extra fractional zeros but refuses extra digits instead of rounding", () => {
    expect(parseLots({ value: "1.500000000", decimals: 6 })).toBe(1500000n);
    for (const value of ["1.0000001", "0.1234567"]) {
      try {
        parseLots({ value, decimals: 6 });
        throw new Error("expected a refusal");
      } catch (error) {
        expect(isSwapIntentError(error, "INVALID_INPUT")).toBe(true);
        expect((error as { details: { field: string } }).details.field).toBe("value");
      }
    }
  });

  it("trims the trailing zeros of a long fraction with linear patterns only (a pasted amount cannot freeze the page)", async () => {
    // a regex `0+$` retries from every zero of "0…01": 100 000 zeros took 8.5 s
    const zeros = "0".repeat(100_000);
    const { superLinear } = await readLinearly(() => {
      expect(() => parseLots({ value: `1.${zeros}1`, decimals: 6 })).toThrow(/more fractional digits/);
      expect(parseLots({ value: `1.5${zeros}`, decimals: 6 })).toBe(1500000n);
      expect(parseLots({ value: `0.${zeros}`, decimals: 0 })).toBe(0n);
    });
    expect(superLinear).toEqual([]);
  });

  it("refuses malformed input and bad decimals with INVALID_INPUT", () => {
    for (const value of ["", ".", "-", "1e6", "1,5", "0x10", "1.2.3", " ", "+1", "Infinity"]) {
      expect(() => parseLots({ value, decimals: 6 })).toThrow(/Invalid input: `value`/);
    }
    for (const decimals of [-1, 1.5, 256, Number.NaN]) {
      expect(() => parseLots({ value: "1", decimals })).toThrow(/Invalid input: `decimals`/);
    }
  });

  it("round-trips lots -> string -> lots for any lots and decimals (property)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }),
        fc.integer({ min: 0, max: 36 }),
        (lots, decimals) => {
          expect(parseLots({ value: formatLots({ value: lots, decimals }), decimals })).toBe(lots);
        },
      ),
    );
  });

  it("round-trips canonical decimal strings -> lots -> string (property)", () => {
    const canonicalDecimal = fc
      .tuple(
        fc.integer({ min: 0, max: 18 }),
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.stringMatching(/^[0-9]{0,18}$/),
        fc.boolean(),
      )
      .map(([decimals, whole, digits, negative]) => {
        const fraction = digits.slice(0, decimals).replace(/0+$/, "");
        const text = `${whole}${fraction ? `.${fraction}` : ""}`;
        return { decimals, text: negative && text !== "0" ? `-${text}` : text };
      });
    fc.assert(
      fc.property(canonicalDecimal, ({ decimals, text }) => {
        expect(formatLots({ value: parseLots({ value: text, decimals }), decimals })).toBe(text);
      }),
    );
  });
});
