import fc from "fast-check";
import { expect, test } from "vitest";
import { JsonNumber, JsonSyntaxError, parseJsonLossless } from "./parseJsonLossless.js";
import { stringifyCanonicalJson } from "./stringifyCanonicalJson.js";

test("numbers keep their source text; everything else equals JSON.parse", () => {
  const text =
    '{"amount": 0.10000000000000000001, "n": -1.5e-7, "s": "a\\u00e9\\n", "arr": [true, false, null, {}], "big": 123456789012345678901234567890}';
  const parsed = parseJsonLossless({ text }) as Record<string, unknown>;
  expect(parsed.amount).toEqual(new JsonNumber("0.10000000000000000001"));
  expect(parsed.n).toEqual(new JsonNumber("-1.5e-7"));
  expect(parsed.big).toEqual(new JsonNumber("123456789012345678901234567890"));
  const reference = JSON.parse(text) as Record<string, unknown>;
  expect(parsed.s).toBe(reference.s);
  expect(parsed.arr).toEqual(reference.arr);
});

test.each([
  ["{"],
  ['{"a":}'],
  ["[1,]"],
  ["01"],
  ["1 2"],
  ['{"a":1,}'],
  ["'x'"],
  ["NaN"],
  [""],
  // invalid escapes, which JSON.parse of the string token refuses with its own SyntaxError
  ['{"a":"\\x41"}'],
  ['{"a":"\\u12"}'],
  ['{"a":"\\u12"  }'],
  ['{"\\q":1}'],
  ['["\\\u0001"]'],
  ['"\\'],
])("refuses %j", (text) => {
  expect(() => parseJsonLossless({ text })).toThrow(JsonSyntaxError);
});

test("a __proto__ key is stored as data, not as the prototype", () => {
  const parsed = parseJsonLossless({ text: '{"__proto__": {"polluted": true}}' }) as Record<string, unknown>;
  expect(Object.keys(parsed)).toEqual(["__proto__"]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

test("canonical form: keys sorted at every depth, no whitespace, number text kept", () => {
  const value = parseJsonLossless({ text: '{ "b": [1.50, {"d": 1, "c": "x"}], "a": null }' });
  expect(stringifyCanonicalJson({ value })).toBe('{"a":null,"b":[1.50,{"c":"x","d":1}]}');
});

test("any text either parses or is refused with a JsonSyntaxError (never another error); JSON.parse agrees on which", () => {
  const jsonish = fc.oneof(
    fc.string({ unit: fc.constantFrom(...'{}[]":,\\/u0123456789abefnrtxlsE.+- \u0000\u001f\ud800é') }),
    fc.json(),
    fc.string({ unit: "binary" }),
  );
  fc.assert(
    fc.property(jsonish, (text) => {
      let ours: "ok" | "syntax";
      try {
        parseJsonLossless({ text });
        ours = "ok";
      } catch (error) {
        expect(error).toBeInstanceOf(JsonSyntaxError);
        ours = "syntax";
      }
      let platform: "ok" | "syntax";
      try {
        JSON.parse(text);
        platform = "ok";
      } catch {
        platform = "syntax";
      }
      // the one deliberate difference: nesting deeper than 64 is refused
      if (!(ours === "syntax" && platform === "ok" && /[[{]{65}/.test(text))) expect(ours).toBe(platform);
    }),
    { seed: 13, numRuns: 1000 },
  );
});
