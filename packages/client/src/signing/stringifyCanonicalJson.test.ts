import { describe, expect, it } from "vitest";
import { stringifyCanonicalJson } from "./stringifyCanonicalJson.js";

describe("stringifyCanonicalJson", () => {
  it("matches JSON.stringify of a key-sorted copy, without whitespace, dropping undefined members", () => {
    expect(
      stringifyCanonicalJson({ value: { b: "1", a: [1.5, false, null], c: undefined, "\u00e9": "\n" } }),
    ).toBe('{"a":[1.5,false,null],"b":"1","é":"\\n"}');
  });

  it("refuses values JSON cannot carry", () => {
    expect(() => stringifyCanonicalJson({ value: { a: Number.NaN } })).toThrow(/non-finite/);
    expect(() => stringifyCanonicalJson({ value: { a: 1n } })).toThrow(/bigint/);
  });
});
