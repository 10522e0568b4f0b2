import { createPermit2Error } from "./fail.js";

/** Deeper than any permit2 intent, quote or expectation nests (params_to_sign reaches 5); a cycle exceeds it. */
const MAX_DEPTH = 16;
/** More values than any of them holds; bounds the work a huge input can cost. */
const MAX_VALUES = 10_000;

/**
 * A plain-data copy of a caller's input, read exactly once: every own enumerable string key of every object and
 * array, each property read a single time (so an accessor or proxy cannot answer a check one way and the signing
 * another), into fresh objects with the same own keys (an own `__proto__` key stays a key, as `JSON.parse` makes
 * it). Leaves are strings, numbers, booleans, bigints, null and undefined.
 *
 * @throws `Permit2Error` `PERMIT2_PARAMS_INVALID` when a read throws, the input nests too deep (or has a cycle), holds
 * too many values, or holds a function or symbol.
 *
 * `keep`: top-level keys whose values are kept as given, each still read once (a signer's wallet objects: a signer,
 * a provider, a signal hold functions).
 */
export function snapshotInput(value: unknown, keep: readonly string[] = []): unknown {
  let count = 0;
  const copy = (item: unknown, depth: number): unknown => {
    if (++count > MAX_VALUES || depth > MAX_DEPTH || typeof item === "function" || typeof item === "symbol")
      throw 0;
    if (item === null || typeof item !== "object") return item;
    if (Array.isArray(item)) return Array.from({ length: item.length }, (_, i) => copy(item[i], depth + 1));
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(item))
      Object.defineProperty(out, key, {
        value:
          depth === 0 && keep.includes(key)
            ? (item as Record<string, unknown>)[key]
            : copy((item as Record<string, unknown>)[key], depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  };
  try {
    return copy(value, 0);
  } catch (cause) {
    throw createPermit2Error(
      "PERMIT2_PARAMS_INVALID",
      "The parameters are not plain data: a read threw, they nest too deep or cyclically, hold too many values, a function or a symbol.",
      { field: "parameters" },
      cause === 0 ? undefined : cause,
    );
  }
}
