import { JsonNumber, type LosslessJson } from "../json/parseJsonLossless.js";

// A NUL, or a UTF-16 surrogate without its pair: text the database (Postgres `text` and `jsonb`) refuses.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether a string can be stored as text: no NUL character and no lone UTF-16 surrogate. Every client-supplied
 * string that may reach the database is checked with this first, so bad text is a 400, never a database error.
 *
 * @example isStorableText("abc") // true
 * @example isStorableText("a\u0000") // false
 */
export function isStorableText(value: string): boolean {
  return !value.includes("\0") && !LONE_SURROGATE.test(value);
}

/** Whether every key and string of a parsed JSON value passes {@link isStorableText}. */
export function isStorableJson(value: LosslessJson): boolean {
  if (typeof value === "string") return isStorableText(value);
  if (value === null || typeof value === "boolean" || value instanceof JsonNumber) return true;
  if (Array.isArray(value)) return value.every(isStorableJson);
  return Object.entries(value).every(([key, item]) => isStorableText(key) && isStorableJson(item));
}
