import fc from "fast-check";
import { expect, test } from "vitest";
import { JsonNumber, JsonSyntaxError, MAX_CONTAINERS, parseJsonLossless } from "./parseJsonLossless.js";
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

test("duplicate keys: the last one wins, at the first one's place, as in JSON.parse", () => {
  const text = '{"a": 1, "b": 2, "a": 3, "__proto__": 4, "__proto__": 5}';
  const parsed = parseJsonLossless({ text }) as Record<string, unknown>;
  expect(Object.keys(parsed)).toEqual(Object.keys(JSON.parse(text)));
  expect(parsed.a).toEqual(new JsonNumber("3"));
  expect(Object.getOwnPropertyDescriptor(parsed, "__proto__")?.value).toEqual(new JsonNumber("5"));
});

const nested = (levels: number, inner: string) => "[".repeat(levels) + inner + "]".repeat(levels);

test.each([
  ["65 arrays, the innermost empty", nested(65, ""), "ok"],
  ["65 objects, the innermost empty", `${'{"k":'.repeat(64)}{}${"}".repeat(64)}`, "ok"],
  ["65 arrays with brackets in a string inside", nested(64, `"[[[{\\"["`), "ok"],
  ["a value inside the 65th array", nested(65, "1"), "nesting too deep at position 65"],
  ["a value inside the 65th object", `${'{"k":'.repeat(65)}1${"}".repeat(65)}`, "nesting too deep"],
  ["66 arrays", nested(66, ""), "nesting too deep at position 65"],
  ["a megabyte of open brackets", "[".repeat(1 << 20), "nesting too deep at position 65"],
])("nesting: %s", (_name, text, expected) => {
  let outcome: string;
  try {
    parseJsonLossless({ text });
    outcome = "ok";
  } catch (error) {
    expect(error).toBeInstanceOf(JsonSyntaxError);
    outcome = (error as JsonSyntaxError).message;
  }
  expect(outcome.startsWith(expected)).toBe(true);
});

// A default-ignorable letter (outside \p{C}, so no error class escapes it) and a right-to-left override.
const HIDDEN = "\u3164";
const BIDI = "\u202e";

test.each([
  ["after a value", `{"a":1 ${HIDDEN}}`],
  ["as the whole text", BIDI],
  ["in place of a key", `{${HIDDEN}:1}`],
  ["in place of a colon", `{"a" ${BIDI}}`],
  ["after the document", `{"a":1}${HIDDEN}`],
  ["in an array", `[1 ${BIDI}]`],
  ["after a minus sign", `[-${HIDDEN}]`],
  ["after a backslash", `["\\${HIDDEN}"]`],
  ["in a unicode escape", `["\\u12${BIDI}"]`],
  ["as a control character in a string", `["\u0001${HIDDEN}"]`],
  ["as the first half of a surrogate pair after a value", `[1 \ud83d\ude00]`],
])("a refusal's message names the problem and its position, never the text (%s)", (_name, text) => {
  let message = "";
  try {
    parseJsonLossless({ text });
  } catch (error) {
    expect(error).toBeInstanceOf(JsonSyntaxError);
    message = (error as JsonSyntaxError).message;
  }
  expect(message).toMatch(/^[a-z ',:]+ at position \d+$/);
});

const containers = (count: number, unit: string) =>
  `[${Array(count - 1)
    .fill(unit)
    .join(",")}]`;

test.each([
  ["as many empty arrays as allowed", containers(MAX_CONTAINERS, "[]"), "ok"],
  ["as many empty objects as allowed", containers(MAX_CONTAINERS, "{}"), "ok"],
  ["brackets inside strings, which are no arrays", `["${"[{".repeat(MAX_CONTAINERS)}"]`, "ok"],
  ["one array too many", containers(MAX_CONTAINERS + 1, "[]"), "too many arrays and objects"],
  ["one object too many", containers(MAX_CONTAINERS + 1, "{}"), "too many arrays and objects"],
  ["a megabyte of nested arrays", containers(20_000, "[[[[]]]]"), "too many arrays and objects"],
])("how many arrays and objects: %s", (_name, text, expected) => {
  let outcome: string;
  try {
    parseJsonLossless({ text });
    outcome = "ok";
  } catch (error) {
    expect(error).toBeInstanceOf(JsonSyntaxError);
    outcome = (error as JsonSyntaxError).message;
  }
  expect(outcome.startsWith(expected)).toBe(true);
});
