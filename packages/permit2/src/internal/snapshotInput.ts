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
 * @throws `BaseError` `PERMIT2_PARAMS_INVALID` when a read throws, the input nests too deep (or has a cycle), holds
 * too many values, or holds a function or symbol.
 */
export function snapshotInput(value: unknown, field: string): unknown {
  let count = 0;
  const ours = new WeakSet<object>();
  const refuse = (shortMessage: string) => {
    const error = createPermit2Error("PERMIT2_PARAMS_INVALID", shortMessage, { field });
    ours.add(error);
    return error;
  };
  const copy = (item: unknown, depth: number): unknown => {
    if (++count > MAX_VALUES) throw refuse(`${field} holds too many values.`);
    if (item === null || typeof item !== "object") {
      if (typeof item === "function" || typeof item === "symbol")
        throw refuse(`${field} holds a ${typeof item}.`);
      return item;
    }
    if (depth >= MAX_DEPTH) throw refuse(`${field} nests too deep or holds a cycle.`);
    if (Array.isArray(item)) {
      const length = item.length;
      const out: unknown[] = [];
      for (let i = 0; i < length; i++) out.push(copy(item[i], depth + 1));
      return out;
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(item))
      Object.defineProperty(out, key, {
        value: copy((item as Record<string, unknown>)[key], depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  };
  try {
    return copy(value, 0);
  } catch (cause) {
    if (typeof cause === "object" && cause !== null && ours.has(cause)) throw cause;
    throw createPermit2Error("PERMIT2_PARAMS_INVALID", `${field} could not be read.`, { field }, cause);
  }
}
