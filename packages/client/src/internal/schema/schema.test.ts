import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import {
  array,
  boolean,
  fail,
  integer,
  json,
  map,
  nullable,
  object,
  optional,
  pattern,
  record,
  type Schema,
  SchemaIssue,
  string,
  unknown,
} from "./schema.js";

/** The issue `run` throws: its dotted path and message; fails the test when nothing is thrown. */
function issueOf(run: () => unknown): { path: string; message: string } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof SchemaIssue)) throw error;
    return { path: error.path.join("."), message: error.message };
  }
  throw new Error("expected a schema issue");
}

describe("leaf schemas", () => {
  it("string, boolean and unknown accept their values and refuse others", () => {
    expect(string("a")).toBe("a");
    expect(issueOf(() => string(1))).toEqual({ path: "", message: "expected string" });
    expect(boolean(false)).toBe(false);
    expect(issueOf(() => boolean("true"))).toEqual({ path: "", message: "expected boolean" });
    const value = { any: 1 };
    expect(unknown(value)).toBe(value);
  });

  it("integer checks type, integrality and the range, in that order", () => {
    const byte = integer(0, 255);
    expect(byte(0)).toBe(0);
    expect(byte(255)).toBe(255);
    expect(issueOf(() => byte("1")).message).toBe("expected number");
    expect(issueOf(() => byte(1.5)).message).toBe("expected an integer");
    expect(issueOf(() => byte(2 ** 53)).message).toBe("expected an integer");
    expect(issueOf(() => byte(Number.NaN)).message).toBe("expected an integer");
    expect(issueOf(() => byte(-1)).message).toBe("expected at least 0");
    expect(issueOf(() => byte(256)).message).toBe("expected at most 255");
    expect(integer()(-(2 ** 53) + 1)).toBe(-(2 ** 53) + 1);
  });

  it("pattern refuses a non-string and a string that does not match, with its own message", () => {
    const hex = pattern(/^0x[0-9a-f]+$/, "expected hex");
    expect(hex("0xab")).toBe("0xab");
    expect(issueOf(() => hex("ab")).message).toBe("expected hex");
    expect(issueOf(() => hex(171)).message).toBe("expected hex");
  });

  it("optional, nullable and map", () => {
    expect(optional(string)(undefined)).toBeUndefined();
    expect(optional(string, "")(undefined)).toBe("");
    expect(issueOf(() => optional(string, "")(null)).message).toBe("expected string");
    expect(nullable(string)(undefined)).toBeNull();
    expect(nullable(string)(null)).toBeNull();
    expect(nullable(string)("x")).toBe("x");
    expect(map(integer(), (n) => n * 2)(21)).toBe(42);
    expect(issueOf(() => map(integer(), (n) => n * 2)("21")).message).toBe("expected number");
    // a mapped optional schema stays optional: an object lets its key be absent
    const mapped = object({ a: map(optional(string, null, true), (value) => value || null) });
    expect(mapped({})).toEqual({ a: null });
    expect(mapped({ a: "" })).toEqual({ a: null });
    expect(issueOf(() => object({ a: map(string, (value) => value) })({})).message).toBe("missing");
  });
});

describe("object, array and record", () => {
  const schema = object({ source_chain: integer(), name: string, note: optional(string) });

  it("renames wire keys to camelCase, keeps only declared keys, leaves out an absent optional key", () => {
    expect(schema({ source_chain: 1, name: "a", extra: true })).toEqual({ sourceChain: 1, name: "a" });
    expect(schema({ source_chain: 1, name: "a", note: "n" })).toEqual({
      sourceChain: 1,
      name: "a",
      note: "n",
    });
  });

  it("reports a missing key as `missing` at its path, and a wrong type with what was expected", () => {
    expect(issueOf(() => schema({ name: "a" }))).toEqual({ path: "source_chain", message: "missing" });
    expect(issueOf(() => schema({ source_chain: "1", name: "a" }))).toEqual({
      path: "source_chain",
      message: "expected number",
    });
    expect(issueOf(() => schema(null))).toEqual({ path: "", message: "expected Object" });
    expect(issueOf(() => schema("x"))).toEqual({ path: "", message: "expected Object" });
  });

  it("stops at the first issue: a million bad items cost one issue", () => {
    const list = array(object({ id: string }));
    const items = Array.from({ length: 1_000_000 }, () => ({}));
    expect(issueOf(() => list(items))).toEqual({ path: "0.id", message: "missing" });
    expect(issueOf(() => list({}))).toEqual({ path: "", message: "expected Array" });
  });

  it("extends a shared shape with more entries, checked after it", () => {
    const extended = object({ a: string }, { b_c: integer() });
    expect(extended({ a: "x", b_c: 2 })).toEqual({ a: "x", bC: 2 });
    expect(issueOf(() => extended({ a: "x" }))).toEqual({ path: "b_c", message: "missing" });
  });

  it("record checks every own value, names the key, and never copies a prototype key", () => {
    const lists = record(array(integer()));
    expect(lists({ a: [1], b: [] })).toEqual({ a: [1], b: [] });
    expect(issueOf(() => lists({ a: [1], b: [1, "2"] }))).toEqual({
      path: "b.1",
      message: "expected number",
    });
    expect(issueOf(() => lists([]))).toEqual({ path: "", message: "expected Object" });
    expect(Object.getPrototypeOf(lists({ ok: [3] }))).toBeNull();
    expect(lists({ ok: [3] }).toString).toBeUndefined();
    for (const key of ["__proto__", "constructor", "prototype"]) {
      const hostile = JSON.parse(`{"ok": [3], "${key}": {"polluted": [1]}}`);
      expect(issueOf(() => lists(hostile))).toEqual({ path: key, message: "unsafe key" });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("object refuses an array, and reads only own keys", () => {
    const optionalOnly = object({ a: optional(string) });
    expect(issueOf(() => optionalOnly([]))).toEqual({ path: "", message: "expected Object" });
    expect(optionalOnly({})).toEqual({});
    const inherited = Object.create({ a: "from the prototype" });
    expect(optionalOnly(inherited)).toEqual({});
    expect(issueOf(() => object({ a: string })(inherited))).toEqual({ path: "a", message: "missing" });
  });

  it("integer turns -0 into 0", () => {
    expect(Object.is(integer()(-0), 0)).toBe(true);
  });

  it("json copies any JSON value without prototypes, refuses prototype keys at any depth and depth above 32", () => {
    const value = JSON.parse('{"a": [1, {"b": null, "c": "x"}], "d": true}');
    const copy = json(value) as Record<string, unknown>;
    expect(copy).toEqual(value);
    expect(copy).not.toBe(value);
    expect(Object.getPrototypeOf(copy)).toBeNull();
    expect(Object.getPrototypeOf((copy.a as unknown[])[1])).toBeNull();
    expect(Array.isArray(copy.a)).toBe(true);
    for (const scalar of [null, 1, "s", false]) expect(json(scalar)).toBe(scalar);
    expect(issueOf(() => json(JSON.parse('{"a": [0, {"__proto__": 1}]}')))).toEqual({
      path: "a.1.__proto__",
      message: "unsafe key",
    });
    let deep: unknown = 1;
    for (let level = 0; level < 32; level++) deep = [deep];
    expect(json(deep)).toEqual(deep);
    expect(issueOf(() => json([deep])).message).toBe("too deep");
    let veryDeep: unknown = 1;
    for (let level = 0; level < 1_000_000; level++) veryDeep = { v: veryDeep };
    expect(issueOf(() => json(veryDeep)).message).toBe("too deep");
  });

  it("passes an error that is not an issue through unchanged", () => {
    const boom = new Error("boom");
    const throwing: Schema<never> = () => {
      throw boom;
    };
    expect(() => object({ a: throwing })({ a: 1 })).toThrow(boom);
  });
});

describe("object: keys in the schema's order are read as for-in lists them, any other order key by key", () => {
  /** Runs `run` with `Object.prototype[key]` set to `value` (enumerable, as plain assignment makes it). */
  function polluted<T>(key: string, value: unknown, run: () => T): T {
    (Object.prototype as Record<string, unknown>)[key] = value;
    try {
      return run();
    } finally {
      delete (Object.prototype as Record<string, unknown>)[key];
    }
  }
  // for-in lists an inherited key after the own ones: polluting the keys the body leaves out at its end is where a
  // read in for-in order would take a value the server never sent
  const tail = object({ a: string, b: optional(integer()), c: optional(string) });

  it("a polluted Object.prototype supplies no key, in whatever place the body leaves it out", () => {
    const body = (text: string) => JSON.parse(text) as unknown;
    for (const value of ["from the prototype", 5]) {
      expect(polluted("c", value, () => tail(body('{"a": "x", "b": 1}')))).toEqual({ a: "x", b: 1 });
      expect(polluted("b", value, () => tail(body('{"a": "x", "c": "y"}')))).toEqual({ a: "x", c: "y" });
      expect(polluted("b", value, () => tail(body('{"a": "x"}')))).toEqual({ a: "x" });
      expect(polluted("a", value, () => issueOf(() => tail(body('{"b": 1, "c": "y"}'))))).toEqual({
        path: "a",
        message: "missing",
      });
      expect(
        polluted("z", value, () => issueOf(() => object({ a: string, z: string })(body('{"a": "x"}')))),
      ).toEqual({ path: "z", message: "missing" });
    }
    // an own key still wins over a polluted one
    expect(polluted("c", 5, () => tail(body('{"a": "x", "b": 1, "c": "own"}')))).toEqual({
      a: "x",
      b: 1,
      c: "own",
    });
  });

  it("any key order, with unknown keys anywhere, gives the result or the first issue the schema's order gives", () => {
    // a wire item (maybe with one field corrupted or removed) and unknown keys, written in any order as JSON text
    const body = fc
      .tuple(
        wireItem,
        fc.constantFrom(...Object.keys(badValuesByKey)),
        fc.nat(),
        fc.constantFrom("keep", "corrupt", "remove"),
        fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
      )
      .map(([item, key, pick, edit, extra]) => {
        const fields: Record<string, unknown> = { ...item };
        const bad = badValuesByKey[key]!;
        if (edit === "corrupt") fields[key] = bad[pick % bad.length];
        if (edit === "remove") delete fields[key];
        const unknownKeys = Object.entries(extra).filter(([name]) => !(name in badValuesByKey));
        return [Object.entries(fields), unknownKeys] as const;
      })
      .chain(([fields, unknownKeys]) =>
        fc.tuple(
          fc.constant(fields),
          fc.shuffledSubarray([...fields, ...unknownKeys], { minLength: fields.length + unknownKeys.length }),
        ),
      );
    const text = (entries: readonly (readonly [string, unknown])[]) =>
      `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(",")}}`;
    const outcome = (entries: readonly (readonly [string, unknown])[]) => {
      try {
        return itemSchema(JSON.parse(text(entries)));
      } catch (error) {
        return issueOf(() => {
          throw error;
        });
      }
    };
    fc.assert(
      fc.property(body, ([inOrder, shuffled]) => {
        expect(outcome(shuffled)).toEqual(outcome(inOrder));
      }),
    );
  });

  it("a body in the schema's order costs one own-key lookup per object, not one per key", () => {
    const items = Array.from({ length: 10 }, (_, index) => ({
      item_id: `i${index}`,
      amount_lots: "1",
      decimals: 6,
      active: true,
      memo: null,
      tag: "t",
    }));
    const body = JSON.parse(JSON.stringify({ items, labels: { a: "b" }, total_count: 10 }));
    const hasOwn = vi.spyOn(Object, "hasOwn");
    try {
      expect(pageSchema(body).items).toHaveLength(10);
      // 10 items and the page: 11 objects, where a lookup per key took 6 per item and 3 for the page (63)
      expect(hasOwn).toHaveBeenCalledTimes(11);
    } finally {
      hasOwn.mockRestore();
    }
  });
});

/**
 * The generative part: a schema using every combinator, valid wire values built by fast-check, and the domain
 * value each should give, written out here (independently of the schema's renaming code).
 */
const itemSchema = object({
  item_id: string,
  amount_lots: map(pattern(/^[0-9]{1,78}$/, "expected digits"), BigInt),
  decimals: integer(0, 255),
  active: boolean,
  memo: nullable(string),
  tag: optional(string, "none"),
});
const pageSchema = object({
  items: array(itemSchema),
  labels: record(string),
  total_count: integer(0),
});

const wireItem = fc.record(
  {
    item_id: fc.string(),
    amount_lots: fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }).map(String),
    decimals: fc.integer({ min: 0, max: 255 }),
    active: fc.boolean(),
    memo: fc.option(fc.string(), { nil: null }),
    tag: fc.string(),
  },
  { requiredKeys: ["item_id", "amount_lots", "decimals", "active"] },
);
const wirePage = fc.record({
  items: fc.array(wireItem, { maxLength: 5 }),
  labels: fc.dictionary(
    fc.string().filter((key) => !["__proto__", "prototype", "constructor"].includes(key)),
    fc.string(),
    { maxKeys: 4 },
  ),
  total_count: fc.nat(),
});
type WireItem = {
  item_id: string;
  amount_lots: string;
  decimals: number;
  active: boolean;
  memo?: string | null;
  tag?: string;
};

function expectedItem(wire: WireItem) {
  return {
    itemId: wire.item_id,
    amountLots: BigInt(wire.amount_lots),
    decimals: wire.decimals,
    active: wire.active,
    memo: wire.memo ?? null,
    tag: wire.tag ?? "none",
  };
}

/** For each leaf of an item: values that must be refused there. */
const badValuesByKey: Record<string, unknown[]> = {
  item_id: [1, true, null, {}, []],
  amount_lots: ["", "1.5", "-1", "1e3", "0x10", "1".repeat(79), 5, null],
  decimals: ["1", 1.5, -1, 256, null, true],
  active: ["true", 0, null],
  memo: [1, true, {}, []],
  tag: [1, null, false],
};
const requiredKeys = ["item_id", "amount_lots", "decimals", "active"];

describe("generative: valid values round-trip, every single-field corruption is refused at its path", () => {
  it("every valid page parses to the domain value with the domain names", () => {
    fc.assert(
      fc.property(wirePage, (wire) => {
        const parsed = pageSchema(JSON.parse(JSON.stringify(wire)));
        expect(parsed).toEqual({
          items: wire.items.map(expectedItem),
          labels: wire.labels,
          totalCount: wire.total_count,
        });
      }),
    );
  });

  it("one corrupted or removed field of one item is refused with that field's path", () => {
    const corruption = fc
      .tuple(
        fc.array(wireItem, { minLength: 1, maxLength: 4 }),
        fc.nat(),
        fc.constantFrom(...Object.keys(badValuesByKey)),
        fc.nat(),
        fc.boolean(),
      )
      .filter(([, , key, , remove]) => !remove || requiredKeys.includes(key));
    fc.assert(
      fc.property(corruption, ([items, at, key, pick, remove]) => {
        const index = at % items.length;
        const bad = badValuesByKey[key]!;
        const page = { items: structuredClone(items), labels: {}, total_count: 1 };
        const target = page.items[index] as Record<string, unknown>;
        if (remove) delete target[key];
        else target[key] = bad[pick % bad.length];
        const issue = issueOf(() => pageSchema(JSON.parse(JSON.stringify(page))));
        expect(issue.path).toBe(`items.${index}.${key}`);
        if (remove) expect(issue.message).toBe("missing");
        else expect(issue.message).toMatch(/^expected /);
      }),
    );
  });

  it("a corrupted label or count is refused at its path", () => {
    fc.assert(
      fc.property(wirePage, fc.constantFrom(1, null, true, {}), (wire, bad) => {
        const withLabel = { ...wire, labels: { ...wire.labels, broken: bad } };
        expect(issueOf(() => pageSchema(withLabel)).path).toBe("labels.broken");
        expect(issueOf(() => pageSchema({ ...wire, total_count: -1 })).path).toBe("total_count");
      }),
    );
  });
});

describe("object's for-in fast path against a key-by-key reading, under hostile bodies and a polluted prototype", () => {
  // wire keys of every kind for-in orders differently: integer-like keys (listed first, ascending), a `__proto__`
  // key (an own data key in JSON.parse's output), snake_case names, and one key the schema does not know
  const entries = {
    item_id: string,
    "7": optional(integer()),
    amount: optional(string),
    nested: optional(object({ inner_a: string, inner_b: optional(array(integer())) })),
    "0": optional(string),
    last_key: optional(nullable(string)),
  };
  const schema = object(entries);
  const names = Object.keys(entries);

  /** The reading before the fast path: each key looked up and checked to be own, in the schema's order. */
  function keyByKey(input: unknown): unknown {
    if (typeof input !== "object" || input === null || Array.isArray(input))
      return issueOf(() => fail("expected Object"));
    const out: Record<string, unknown> = {};
    for (const key of names) {
      const field = entries[key as keyof typeof entries] as Schema<unknown>;
      const value = Object.hasOwn(input, key) ? (input as Record<string, unknown>)[key] : undefined;
      if (value === undefined && !field.optional) return { path: key, message: "missing" };
      let result: unknown;
      try {
        result = field(value);
      } catch (error) {
        const issue = issueOf(() => {
          throw error;
        });
        return { path: issue.path ? `${key}.${issue.path}` : key, message: issue.message };
      }
      if (result !== undefined) out[key.replace(/_(.)/g, (_, c: string) => c.toUpperCase())] = result;
    }
    return out;
  }
  const outcome = (input: unknown) => {
    try {
      return schema(input);
    } catch (error) {
      return issueOf(() => {
        throw error;
      });
    }
  };

  const keyPool = [...names, "__proto__", "1", "10", "extra", "constructor", "toString", "Last_key"];
  const value = fc.oneof(
    fc.constantFrom(
      "s",
      3,
      -1,
      1.5,
      null,
      true,
      [1, 2],
      { inner_a: "a" },
      { inner_a: "a", inner_b: [1] },
      {},
    ),
    fc.jsonValue({ maxDepth: 2 }),
  );
  // JSON text, so duplicate keys (the last value wins, at the first key's place) and `__proto__` reach JSON.parse
  const text = fc
    .array(fc.tuple(fc.constantFrom(...keyPool), value), { maxLength: 10 })
    .map((pairs) => `{${pairs.map(([key, v]) => `${JSON.stringify(key)}:${JSON.stringify(v)}`).join(",")}}`);
  /** A way other code may have changed Object.prototype, undone after the run. */
  const pollution = fc.record({
    key: fc.constantFrom(...names, "extra"),
    value: fc.constantFrom("from the prototype", 5, null, { inner_a: "p" }),
    // data properties, as a merge bug writes them (an accessor needs code already running in the page)
    how: fc.constantFrom("assign", "enumerable", "hidden", "none"),
  });
  function polluted<T>({ key, value, how }: { key: string; value: unknown; how: string }, run: () => T): T {
    const proto = Object.prototype as Record<string, unknown>;
    if (how === "assign") proto[key] = value;
    if (how === "enumerable" || how === "hidden")
      Object.defineProperty(proto, key, {
        value,
        enumerable: how === "enumerable",
        configurable: true,
        writable: true,
      });
    try {
      return run();
    } finally {
      delete proto[key];
    }
  }

  it("gives the key-by-key result or issue for any JSON body and any prototype pollution", () => {
    fc.assert(
      fc.property(text, pollution, (body, pollute) => {
        const input = JSON.parse(body) as unknown;
        const [fast, reference] = polluted(pollute, () => [outcome(input), keyByKey(input)]);
        expect(fast).toEqual(reference);
        // never a value the body did not send (checkable only when the body does not send that same value itself:
        // `{"last_key":null}` under a prototype polluted with null is a legitimate null)
        if (
          !("path" in (fast as object)) &&
          pollute.how !== "none" &&
          !body.includes(JSON.stringify(pollute.value))
        )
          expect(JSON.stringify(fast)).not.toContain(JSON.stringify(pollute.value));
      }),
      { numRuns: 2000 },
    );
  });

  it("a polluted Symbol.iterator, or a key added to the prototype mid-read, changes nothing", () => {
    const body = JSON.parse('{"item_id":"i","7":1,"amount":"2","last_key":"z"}') as unknown;
    const expected = { itemId: "i", "7": 1, amount: "2", lastKey: "z" };
    const proto = Object.prototype as Record<PropertyKey, unknown>;
    proto[Symbol.iterator] = () => {
      throw new Error("iterated");
    };
    let result: unknown;
    try {
      result = schema(body);
    } finally {
      delete proto[Symbol.iterator];
    }
    // compared once the prototype is clean again (the matcher itself iterates)
    expect(result).toEqual(expected);
    // a schema whose check adds the later keys to the prototype while the body is read
    const sneaky = object({
      a: map(string, (v) => {
        (Object.prototype as Record<string, unknown>).b = "sneaked";
        return v;
      }),
      b: optional(string),
      c: string,
    });
    try {
      expect(sneaky(JSON.parse('{"a":"x","c":"y"}'))).toEqual({ a: "x", c: "y" });
    } finally {
      delete (Object.prototype as Record<string, unknown>).b;
    }
  });
});
