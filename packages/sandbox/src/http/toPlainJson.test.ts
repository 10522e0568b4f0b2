import { expect, test } from "vitest";
import { parseJsonLossless } from "../json/parseJsonLossless.js";
import { toPlainJson } from "./toPlainJson.js";

test("numbers become JS numbers; everything else is copied as parsed", () => {
  const text = '{"a":[1.5,-2,"x",null,true,{"b":{}}],"c":0}';
  expect(toPlainJson(parseJsonLossless({ text }))).toEqual(JSON.parse(text));
});

test.each([
  ["at the top", '{"__proto__":{"transaction":"00"}}', (v: unknown) => v],
  [
    "inside an object",
    '{"signed":{"__proto__":{"transaction":"00"}}}',
    (v: unknown) => (v as { signed: unknown }).signed,
  ],
  ["inside an array", '[{"__proto__":{"transaction":"00"}}]', (v: unknown) => (v as unknown[])[0]],
])("a __proto__ key %s stays an own key and never the copy's prototype", (_where, text, pick) => {
  const copy = pick(toPlainJson(parseJsonLossless({ text }))) as Record<string, unknown>;
  expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  expect(copy.transaction).toBeUndefined();
  expect(Object.keys(copy)).toEqual(["__proto__"]);
  expect(JSON.stringify(copy)).toBe('{"__proto__":{"transaction":"00"}}');
});
