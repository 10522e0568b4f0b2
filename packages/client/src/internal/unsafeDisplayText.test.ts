/** The shared display class refuses every default-ignorable code point, and the written-out ranges are exact. */
import { describe, expect, it } from "vitest";
import { DEFAULT_IGNORABLE_RANGES, UNSAFE_DISPLAY_CHARACTERS } from "./unsafeDisplayText.js";

const unsafe = new RegExp(`[${UNSAFE_DISPLAY_CHARACTERS}]`, "u");

describe("UNSAFE_DISPLAY_CHARACTERS", () => {
  it("DEFAULT_IGNORABLE_RANGES lists exactly the code points with Default_Ignorable_Code_Point", () => {
    const property = /\p{Default_Ignorable_Code_Point}/u;
    const found: [number, number][] = [];
    for (let c = 0; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      if (!property.test(String.fromCodePoint(c))) continue;
      const last = found.at(-1);
      if (last !== undefined && last[1] === c - 1) last[1] = c;
      else found.push([c, c]);
    }
    expect(found).toEqual(DEFAULT_IGNORABLE_RANGES.map(([first, last]) => [first, last]));
  });

  const samples = DEFAULT_IGNORABLE_RANGES.flat().map(
    (codePoint) => [codePoint.toString(16).toUpperCase().padStart(4, "0"), codePoint] as const,
  );
  it.each(samples)("matches U+%s", (_, codePoint) => {
    expect(unsafe.test(`btc${String.fromCodePoint(codePoint)}`)).toBe(true);
  });

  it("matches the blank braille pattern, controls and separators, and leaves plain text alone", () => {
    for (const char of ["\u2800", "\n", "\u0085", "\u2028", "\u2029"]) expect(unsafe.test(char)).toBe(true);
    expect(unsafe.test("0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512 bc1q… ₿ 日本 é")).toBe(false);
  });
});
