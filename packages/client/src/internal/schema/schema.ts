/**
 * A small declarative schema library for response bodies: each combinator compiles its shape into one closure
 * that checks a parsed JSON value and returns the domain value, failing at the first issue with its path.
 * Valibot did this before; an object schema of its own costs 1.7x `JSON.parse` on a token page before any
 * check, where these closures build each output object once, under its domain names.
 */

/** A compiled schema: checks `input` and returns the output value, or throws a {@link SchemaIssue}. */
export interface Schema<T> {
  (input: unknown): T;
  /** Set on schemas that accept a missing key (`undefined`); an object reports any other as `missing`. */
  optional?: true;
}

/** The output type of a schema. */
export type Output<S> = S extends Schema<infer T> ? T : never;

/** The first problem found: where (`path`, outermost key first) and what was expected. */
export class SchemaIssue {
  readonly path: (string | number)[] = [];
  declare readonly message: string;
  constructor(message: string) {
    this.message = message;
  }
}

/** Throws the issue `message` at the current place; outer schemas add their keys to its path. */
export function fail(message: string): never {
  throw new SchemaIssue(message);
}

/** Adds `key` in front of an issue's path as it passes outward; any other error passes unchanged. */
function at(error: unknown, key: string | number): unknown {
  if (error instanceof SchemaIssue) error.path.unshift(key);
  return error;
}

/** Any string. */
export const string: Schema<string> = (input) =>
  typeof input === "string" ? input : fail("expected string");

/** A boolean. */
export const boolean: Schema<boolean> = (input) =>
  typeof input === "boolean" ? input : fail("expected boolean");

/** Anything, passed through (checked later by the caller, or not at all). */
export const unknown: Schema<unknown> = (input) => input;

/** A string that matches `pattern`; `message` says what was expected. */
/* @__NO_SIDE_EFFECTS__ */
export function pattern(regex: RegExp, message: string): Schema<string> {
  return (input) => (typeof input === "string" && regex.test(input) ? input : fail(message));
}

/** A safe integer from `min` to `max`. */
/* @__NO_SIDE_EFFECTS__ */
export function integer(min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): Schema<number> {
  return (input) => {
    if (typeof input !== "number") fail("expected number");
    if (!Number.isSafeInteger(input)) fail("expected an integer");
    if (input < min) fail(`expected at least ${min}`);
    if (input > max) fail(`expected at most ${max}`);
    // -0 is 0: JSON can say `-0`, and `Object.is` (and so a deep equality) tells it apart
    return input || 0;
  };
}

/** `schema`, then `map` over its output (an absent value too, when `schema` is optional: it stays optional). */
/* @__NO_SIDE_EFFECTS__ */
export function map<T, U>(schema: Schema<T>, mapValue: (value: T) => U): Schema<U> {
  const mapped: Schema<U> = (input) => mapValue(schema(input));
  if (schema.optional) mapped.optional = true;
  return mapped;
}

/**
 * `schema`, or `fallback` when the value is absent: `undefined` only, or also `null` when `orNull` is set.
 * Without a fallback an absent value stays `undefined` (an object then leaves the key out).
 */
/* @__NO_SIDE_EFFECTS__ */
export function optional<T, F = undefined>(schema: Schema<T>, fallback?: F, orNull?: boolean): Schema<T | F> {
  const optionalSchema: Schema<T | F> = (input) =>
    input === undefined || (orNull && input === null) ? (fallback as F) : schema(input);
  optionalSchema.optional = true;
  return optionalSchema;
}

/** `schema`, or `null` when the value is `null` or missing. */
/* @__NO_SIDE_EFFECTS__ */
export function nullable<T>(schema: Schema<T>): Schema<T | null> {
  return optional(schema, null, true);
}

/** An array whose every item passes `item`. */
/* @__NO_SIDE_EFFECTS__ */
export function array<T>(item: Schema<T>): Schema<T[]> {
  return (input) => {
    if (!Array.isArray(input)) fail("expected Array");
    const out: T[] = new Array(input.length);
    let index = 0;
    try {
      for (; index < input.length; index++) out[index] = item(input[index]);
    } catch (error) {
      throw at(error, index);
    }
    return out;
  };
}

/** A JSON object that is not an array: what `object` and `record` take. */
function isObject(input: unknown): input is Record<string, unknown> {
  return typeof input === "object" && input !== null && !Array.isArray(input);
}

/**
 * Keys that name a prototype slot: refused in every map a server fills. Copied by assignment or `Object.assign`
 * (by us or by a wallet), `__proto__` sets the copy's prototype; the others are never a domain field or type name.
 */
const unsafeKeys = new Set(["__proto__", "prototype", "constructor"]);

/** The key's value, refused when the key names a prototype slot. */
function safeEntry(input: Record<string, unknown>, key: string): unknown {
  return unsafeKeys.has(key) ? fail("unsafe key") : input[key];
}

/**
 * An object used as a map: every own key's value passes `value`; copied into a fresh object without a prototype,
 * so a key the server did not send (`toString`, `hasOwnProperty`) reads as `undefined`, never as an inherited
 * function. A key naming a prototype slot is refused (`unsafe key`).
 */
/* @__NO_SIDE_EFFECTS__ */
export function record<T>(value: Schema<T>): Schema<Record<string, T>> {
  return (input) => {
    if (!isObject(input)) fail("expected Object");
    const out: Record<string, T> = Object.create(null);
    for (const key of Object.keys(input)) {
      try {
        out[key] = value(safeEntry(input, key));
      } catch (error) {
        throw at(error, key);
      }
    }
    return out;
  };
}

/** How deep {@link json} goes: the EIP-712 maps nest a few levels; a deeper value is refused, never recursed. */
const maxJsonDepth = 32;

/**
 * Any JSON value, copied: objects without a prototype, every key checked as a {@link record}'s is, at most
 * {@link maxJsonDepth} levels deep (a deeper value is refused as `too deep`, so a nested body can never exhaust
 * the stack here or in the wallet code that walks it).
 */
export const json: Schema<unknown> = (input) => copyJson(input, 0);

function copyJson(input: unknown, depth: number): unknown {
  if (typeof input !== "object" || input === null) return input;
  if (depth === maxJsonDepth) fail("too deep");
  const out: Record<string, unknown> | unknown[] = Array.isArray(input) ? [] : Object.create(null);
  for (const key of Object.keys(input)) {
    try {
      (out as Record<string, unknown>)[key] = copyJson(
        safeEntry(input as Record<string, unknown>, key),
        depth + 1,
      );
    } catch (error) {
      throw at(error, Array.isArray(input) ? Number(key) : key);
    }
  }
  return out;
}

/** `snake_case` to `camelCase`, as a type: the domain name of a wire field. */
export type Camel<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<Camel<Tail>>}`
  : S;

/** The output of an object schema over `E`, under the domain (camelCase) names. */
export type ObjectOutput<E extends Record<string, Schema<unknown>>> = {
  [K in keyof E as K extends string ? Camel<K> : K]: Output<E[K]>;
};

/**
 * An object with the wire keys of `entries` (and of `moreEntries`, after them), each checked by its schema in
 * order; the output holds only those keys, renamed to camelCase (`source_chain` → `sourceChain`), and leaves out a
 * key whose output is `undefined`. A key missing from the input fails as `missing` unless its schema is optional;
 * only own keys count, and an array is no object. Any other key is ignored (never copied).
 * (`moreEntries` extends a shared shape without an object spread, which a bundler cannot drop when unused.)
 */
/* @__NO_SIDE_EFFECTS__ */
export function object<
  E extends Record<string, Schema<unknown>>,
  M extends Record<string, Schema<unknown>> = Record<never, Schema<unknown>>,
>(entries: E, moreEntries?: M): Schema<ObjectOutput<E & M>> {
  entries = { ...entries, ...moreEntries };
  const keys = Object.keys(entries);
  const names = keys.map((key) => key.replace(/_(.)/g, (_, c: string) => c.toUpperCase()));
  const schemas = Object.values(entries) as Schema<unknown>[];
  /** Checks the value of field `index` and sets its output, left out when `undefined`. */
  const put = (out: Record<string, unknown>, index: number, value: unknown): void => {
    const schema = schemas[index] as Schema<unknown>;
    if (value === undefined && !schema.optional) fail("missing");
    const result = schema(value);
    if (result !== undefined) out[names[index] as string] = result;
  };
  return (input) => {
    if (!isObject(input)) fail("expected Object");
    const out: Record<string, unknown> = {};
    let index = 0;
    try {
      // Own keys only: a key on `Object.prototype` (polluted by other code) is not a key the server sent.
      // Keys sent in the schema's order (the spec's) are read as for-in lists them, with no lookup per key (one
      // object schema serves every shape, so a lookup by name is a megamorphic one): for-in lists own keys before
      // inherited ones, so when the last key is own, every key read before it is own too (JSON.parse makes every
      // key enumerable). From the first key out of that order on, each key is looked up and checked to be own.
      if (Object.hasOwn(input, keys.at(-1) as string))
        for (const key in input) {
          if (key !== keys[index]) break;
          put(out, index, input[key]);
          index++;
        }
      for (; index < keys.length; index++) {
        const key = keys[index] as string;
        put(out, index, Object.hasOwn(input, key) ? input[key] : undefined);
      }
    } catch (error) {
      throw at(error, keys[index] as string);
    }
    return out as ObjectOutput<E & M>;
  };
}
