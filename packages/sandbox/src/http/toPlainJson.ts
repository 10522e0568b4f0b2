import { JsonNumber, type LosslessJson } from "../json/parseJsonLossless.js";
import type { Json } from "../legs/types.js";

/**
 * Convert a lossless value into plain JSON (numbers become JS numbers). Keys are defined, never assigned: a
 * `__proto__` key stays a key, as in the parsed value, and never becomes the copy's prototype.
 *
 * @example toPlainJson(parseJsonLossless({ text: '{"a":[1.5]}' })) // { a: [1.5] }
 */
export function toPlainJson(value: LosslessJson): Json {
  if (value instanceof JsonNumber) return value.toNumber();
  if (Array.isArray(value)) return value.map(toPlainJson);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlainJson(v)]));
  return value;
}
