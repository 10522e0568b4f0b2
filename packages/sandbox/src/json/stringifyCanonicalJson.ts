import { JsonNumber, type LosslessJson } from "./parseJsonLossless.js";

/**
 * Serialize a parsed body the way request signing signs it (design §2): keys sorted at every depth
 * (UTF-16 code unit order), no whitespace, strings as `JSON.stringify` writes them, numbers as their source text.
 *
 * @example stringifyCanonicalJson({ value: parseJsonLossless({ text: '{"b":1.50,"a":"x"}' }) }) // '{"a":"x","b":1.50}'
 */
export function stringifyCanonicalJson({ value }: { value: LosslessJson }): string {
  if (value === null) return "null";
  if (value instanceof JsonNumber) return value.text;
  if (typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
  if (Array.isArray(value))
    return `[${value.map((item) => stringifyCanonicalJson({ value: item })).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${stringifyCanonicalJson({ value: value[key] as LosslessJson })}`).join(",")}}`;
}
