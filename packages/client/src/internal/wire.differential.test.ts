/**
 * Differential test against the valibot schemas the schema module replaced (test/valibotWire.ts, verbatim from
 * commit 3e624e8): valid bodies corrupted by fast-check (a value replaced by any JSON value, a key removed, a key
 * added), then both parsers. The new one never accepts what valibot refused; it refuses more only for the
 * hardenings listed in `stricter`; when both accept, the results are the same.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  networksWire,
  permit2IntentWire,
  quoteWire,
  statusWire,
  tokensPageWire,
} from "../../test/fixtures.js";
import * as valibotWire from "../../test/valibotWire.js";
import { isClientError } from "../errors/codes.js";
import * as wire from "./wire.js";

type Parse = (json: unknown) => unknown;
/** Each parse function: [the schema module's, valibot's]. */
const parsers = {
  parseQuote: [wire.parseQuote, valibotWire.parseQuote],
  parseIntent: [wire.parseIntent, valibotWire.parseIntent],
  parseSwapStatus: [wire.parseSwapStatus, valibotWire.parseSwapStatus],
  parseHistoryPage: [wire.parseHistoryPage, valibotWire.parseHistoryPage],
  parseNetworks: [wire.parseNetworks, valibotWire.parseNetworks],
  parseTokensPage: [wire.parseTokensPage, valibotWire.parseTokensPage],
} satisfies Record<string, [Parse, Parse]>;

/** The refusals only the new schemas make, each a hardening of this pass or the last (see the changesets). */
const stricter = new Set(["expected Object", "unsafe key", "too deep"]);

type Path = (string | number)[];

/** Every place in `value` (the root too): a mutation target. */
function paths(value: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [prefix];
  if (typeof value === "object" && value !== null)
    for (const [key, item] of Object.entries(value))
      out.push(...paths(item, [...prefix, Array.isArray(value) ? Number(key) : key]));
  return out;
}

type Mutation = { path: number; kind: "replace" | "delete" | "add"; key: string; value: unknown };

function mutate(body: unknown, mutations: Mutation[]): unknown {
  let root = structuredClone(body);
  for (const mutation of mutations) {
    const all = paths(root);
    const path = all[mutation.path % all.length] as Path;
    if (path.length === 0) {
      if (mutation.kind === "replace") root = mutation.value;
      continue;
    }
    type Node = Record<string | number, unknown>;
    const parent = path.slice(0, -1).reduce((node, key) => node[key] as Node, root as Node);
    const last = path[path.length - 1] as string | number;
    if (mutation.kind === "replace") parent[last] = mutation.value;
    else if (mutation.kind === "delete" && !Array.isArray(parent)) delete parent[last];
    else if (typeof parent[last] === "object" && parent[last] !== null && !Array.isArray(parent[last]))
      Object.defineProperty(parent[last] as Node, mutation.key, {
        value: mutation.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  // as a server sends it: text, parsed again (a `__proto__` key comes back as an own key)
  const text = JSON.stringify(root);
  return text === undefined ? undefined : JSON.parse(text);
}

const edgeValues = fc.constantFrom<unknown>(
  -0,
  0,
  1,
  1e21,
  -1,
  1.5,
  2 ** 53,
  "0",
  "007",
  "+1",
  " 1",
  "",
  "1e3",
  "9".repeat(79),
  "2026-02-29",
  "2026-11-22T10:00:00Z",
  `0x${"ab".repeat(32)}`,
  "permit2",
  "htlc",
  "cosign",
  [],
  {},
  null,
  true,
);
const mutation = fc.record<Mutation>({
  path: fc.nat(),
  kind: fc.constantFrom("replace", "delete", "add"),
  key: fc.oneof(
    fc.constantFrom(
      "__proto__",
      "constructor",
      "prototype",
      "toString",
      "sourceChain",
      "source_chain",
      "length",
    ),
    fc.string({ maxLength: 6 }),
  ),
  value: fc.oneof(edgeValues, fc.jsonValue({ maxDepth: 3 })),
});

/** A comparable text of a result: bigints and dates spelled out, -0 as 0, prototypes ignored. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, item) => (typeof item === "bigint" ? `${item}n` : item));
}

function verdict(parse: (json: unknown) => unknown, body: unknown) {
  try {
    return { ok: true as const, value: canonical(parse(body)) };
  } catch (error) {
    if (!isClientError(error, "RESPONSE_INVALID")) throw error;
    return { ok: false as const, issue: error.details.issues?.[0] };
  }
}

const cases: [string, keyof typeof parsers, () => unknown][] = [
  ["quote", "parseQuote", () => quoteWire()],
  ["permit2 intent", "parseIntent", permit2IntentWire],
  [
    "htlc intent",
    "parseIntent",
    () => ({
      ...permit2IntentWire(),
      approval_mechanism: "htlc",
      params_to_sign: { psbt: "cHNidP8=", inputs: [0, 2] },
    }),
  ],
  ["swap status", "parseSwapStatus", () => statusWire("Accepted")],
  [
    "history page",
    "parseHistoryPage",
    () => ({ items: [{ ...statusWire("Refunded"), kyc_link: null }], limit: 20, offset: 0, total: 1 }),
  ],
  ["networks", "parseNetworks", () => networksWire],
  ["token page", "parseTokensPage", () => tokensPageWire(new URLSearchParams("limit=3"), 5)],
];

describe("differential: the schema module against the valibot schemas it replaced", () => {
  for (const [name, parser, valid] of cases) {
    it(`${name}: the same verdict and result on corrupted bodies, stricter only where listed`, () => {
      const [parseNew, parseOld]: Parse[] = parsers[parser];
      expect(verdict(parseNew, valid())).toEqual(verdict(parseOld, valid()));
      fc.assert(
        fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (mutations) => {
          const body = mutate(valid(), mutations);
          const before = verdict(parseOld, body);
          const after = verdict(parseNew, body);
          const context = canonical({ body, before, after });
          if (!before.ok) expect(after.ok, context).toBe(false);
          else if (!after.ok) {
            expect(stricter, context).toContain(after.issue?.message);
          } else expect(after.value, context).toBe(before.value);
        }),
        { numRuns: 400 },
      );
    });
  }
});

describe("differential: each hardening, a body valibot accepted that the schema module refuses", () => {
  const withData = (edit: (data: Record<string, unknown>) => void) => {
    const body = permit2IntentWire();
    edit((body.params_to_sign as { additional_data: Record<string, unknown> }).additional_data);
    return JSON.parse(JSON.stringify(body));
  };
  let deep: unknown = "x";
  for (let level = 0; level < 40; level++) deep = { v: deep };
  const hardenings: [string, keyof typeof parsers, unknown, string][] = [
    [
      "an array for swap_metadata",
      "parseSwapStatus",
      statusWire("Accepted", { swap_metadata: [] }),
      "expected Object",
    ],
    ["an array for the domain map", "parseIntent", withData((data) => (data.domain = [])), "expected Object"],
    [
      "a __proto__ key in witness",
      "parseIntent",
      JSON.parse(
        JSON.stringify(permit2IntentWire()).replace('"witness":{', '"witness":{"__proto__":{"a":1},'),
      ),
      "unsafe key",
    ],
    [
      "a constructor key in types",
      "parseIntent",
      JSON.parse(JSON.stringify(permit2IntentWire()).replace('"types":{', '"types":{"constructor":[],')),
      "unsafe key",
    ],
    ["a witness 40 levels deep", "parseIntent", withData((data) => (data.witness = { deep })), "too deep"],
  ];
  for (const [name, parser, body, message] of hardenings) {
    it(name, () => {
      const [parseNew, parseOld]: Parse[] = parsers[parser];
      expect(verdict(parseOld, body).ok).toBe(true);
      const after = verdict(parseNew, body);
      expect(after.ok).toBe(false);
      expect(after.ok ? undefined : after.issue?.message).toBe(message);
    });
  }
});
