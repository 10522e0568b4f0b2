import { JsonNumber, type LosslessJson } from "../json/parseJsonLossless.js";
import type { Json } from "../legs/types.js";

/** Convert a lossless value into plain JSON (numbers become JS numbers). */
export function toPlainJson(value: LosslessJson): Json {
  if (value instanceof JsonNumber) return value.toNumber();
  if (Array.isArray(value)) return value.map(toPlainJson);
  if (value !== null && typeof value === "object") {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toPlainJson(v);
    return out;
  }
  return value;
}
