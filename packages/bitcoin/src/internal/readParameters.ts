// Internal: the caller's parameters, read once before anything else. A member may be a getter that throws, an object a
// revoked proxy, the ecc backend one whose function throws: each is `BTC_PARAMETER_INVALID` naming the parameter
// (the throw its cause), never an uncoded error. Later steps use only the copies made here.
import { createBitcoinError } from "../errors.js";
import type { BitcoinEcc } from "../types.js";

/** What `read()` returns; a throw is `BTC_PARAMETER_INVALID` for `parameter`. */
export function readParameter<T>(parameter: string, read: () => T): T {
  try {
    return read();
  } catch (thrown) {
    throw createBitcoinError("BTC_PARAMETER_INVALID", "A parameter cannot be read.", { parameter }, thrown);
  }
}

/**
 * `value` when it is no object (the checks that follow refuse it with their own codes); otherwise a copy of its own
 * enumerable fields, each read once and named `name.key` in errors (`name` `""`: the parameters themselves). The
 * copy has no prototype: a field the caller left out is absent, never read from a polluted `Object.prototype`.
 */
export function readRecord(name: string, value: unknown): Record<string, unknown> {
  if (typeof value !== "object" || value === null) return value as Record<string, unknown>;
  const keys = readParameter(name || "parameters", () => Object.keys(value));
  const copy: Record<string, unknown> = { __proto__: null };
  // On an object without prototype an own `__proto__` field (JSON.parse makes one) stays a field.
  for (const key of keys) {
    copy[key] = readParameter(name ? `${name}.${key}` : key, () => (value as Record<string, unknown>)[key]);
  }
  return copy;
}

/**
 * A copy of `value` when it is a `Uint8Array` or an array (at most 10,001 items: a deposit of more inputs outweighs
 * what nodes relay, so a longer list of input indexes is refused either way), else `value` itself. An array is
 * copied item by item into a plain array: its own `slice` or its constructor's species could return anything.
 */
export function readBytes(name: string, value: unknown): unknown {
  return readParameter(name, () =>
    value instanceof Uint8Array
      ? Uint8Array.from(value)
      : Array.isArray(value)
        ? Array.from({ length: Math.min(value.length, 10_001) }, (_, i) => value[i])
        : value,
  );
}

const ECC_FUNCTIONS = ["isPoint", "isXOnlyPoint", "xOnlyPointAddTweak", "verify", "verifySchnorr"] as const;
const backends = new WeakMap<object, BitcoinEcc>();

/**
 * The caller's ecc backend as its five functions, read once per backend object (so bitcoinjs' backend stays the same
 * object from call to call), each turning a throw into `BTC_PARAMETER_INVALID` (`ecc.<name>`). Missing: `ecc`.
 */
export function readEcc(ecc: unknown): BitcoinEcc {
  const known = readParameter("ecc", () => {
    Reflect.ownKeys(ecc as object); // no object, or a revoked proxy
    return backends.get(ecc as object);
  });
  if (known) return known;
  const backend: Record<string, unknown> = {};
  for (const name of ECC_FUNCTIONS) {
    const fn = readParameter(`ecc.${name}`, () => {
      const read: unknown = (ecc as Record<string, unknown>)[name];
      if (typeof read !== "function") throw new TypeError("not a function");
      return read;
    });
    backend[name] = (...args: unknown[]) => readParameter(`ecc.${name}`, () => fn.apply(ecc, args));
  }
  backends.set(ecc as object, backend as unknown as BitcoinEcc);
  // Read again (signHtlcPsbt hands its copy to verifyHtlcPsbt): the same object.
  backends.set(backend, backend as unknown as BitcoinEcc);
  return backend as unknown as BitcoinEcc;
}
