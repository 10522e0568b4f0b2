/**
 * Generative tamper test: start from a quote and an intent whose `params_to_sign` the sandbox's own
 * builder produced (test/fixtures/sandbox-permit2.json, EVM and Tron), mutate any field or JSON value (replace,
 * delete, add or rename keys, nudge numbers, edit strings, swap address forms), then sign through the package's
 * signers with a real key behind a spy. Each case must end one of two ways:
 * - refused with a `SwapIntentError` whose code is one of this package's codes, the spy (the key) never called; or
 * - signed, and what was signed means exactly what the wallet expected: domain (name, chain, Permit2), token,
 *   amount, spender, deadline within its bound, witness intent id, secret hash, destination chain and token,
 *   recipient, a minimum at least the wallet's least accepted, and a digest that viem (an independent encoder)
 *   computes from the returned typed data.
 *
 * Three layers: mutations of the parsed `Intent`/`Quote` (any value, the verifier's own input); the same with one
 * value then turned into an accessor that answers its first reads one way and later reads another (a check and the
 * signing must not see different values); and mutations of the wire JSON parsed by `@swapintent/client` first
 * (where the client may refuse with its own code).
 * CI runs a fixed seed and FUZZ_RUNS (default 150) cases per layer and chain;
 * `FUZZ_RUNS=100000 pnpm --filter @swapintent/permit2 fuzz` runs more (FUZZ_SEED picks another seed).
 */
import { createSwapIntentClient, type Intent, isSwapIntentError, type Quote } from "@swapintent/client";
import { TypedDataEncoder } from "ethers";
import fc from "fast-check";
import * as tronweb from "tronweb";
import { hashTypedData, type TypedDataDefinition } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it, vi } from "vitest";
import { USER_PRIVATE_KEY } from "../../test/fixtures/buildPermit2Fixture.js";
import sandbox from "../../test/fixtures/sandbox-permit2.json" with { type: "json" };
import { PERMIT2_ERROR_CODES } from "../../test/permit2Codes.js";
import { anyAddressTo20 } from "../address/addresses.js";
import { CANONICAL_PERMIT2_ADDRESS, DEFAULT_MAX_DEADLINE_SECS, TRON_CHAIN_ID_MASK } from "../constants.js";
import { signPermit2Approval } from "../evm/signPermit2Approval.js";
import { UNSAFE_TEXT } from "../internal/unsafeText.js";
import { signTronPermit2Approval } from "../tron/signTronPermit2Approval.js";
import type {
  Permit2Expectation,
  Permit2TypedData,
  VerifyPermit2ApprovalParameters,
  VerifyPermit2ApprovalReturnType,
} from "../types.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const TIMEOUT_MS = Math.max(60_000, RUNS * 60);
const PERMIT2_CODES = new Set<string>(PERMIT2_ERROR_CODES);

type Chain = "evm" | "tron";
type Base = (typeof sandbox)["evm"];

const account = privateKeyToAccount(USER_PRIVATE_KEY);
const tally = { mutations: 0, cases: 0, refused: 0, refusedByClient: 0, signed: 0 };

/** What the wallet knows from its own state: the sandbox chain facts and what the user chose. */
function expectationOf(base: Base): Permit2Expectation {
  return {
    chainId: base.chainId,
    recipient: base.recipient,
    owner: base.user,
    spender: base.escrow,
    sourceToken: base.quote.source_token,
    sourceAmountLots: 2_500_000n,
    sourceDecimals: 6,
    destination: { network: 4, token: "btc", decimals: 8, minAmountLots: 3_900n },
  };
}

/** The wire JSON parsed by the client, as a wallet gets it (a stub transport answers with the given body). */
async function parseWithClient(chain: Chain, wire: { quote: unknown; intent: unknown }, nowMs: number) {
  let body: unknown;
  const client = createSwapIntentClient({
    baseUrl: "https://sandbox.test",
    apiKey: "fuzz",
    retry: false,
    fetch: async () => new Response(JSON.stringify(body), { status: 200 }),
  });
  body = wire.quote;
  const quote = await client.getBestQuote({
    sourceChain: chain === "evm" ? 1 : 3,
    sourceToken: "t",
    destChain: 4,
    destToken: "btc",
    amount: "2.5",
    slippageBps: 50,
  });
  body = wire.intent;
  const intent = await client.createIntent({
    quote,
    refundAddress: "r",
    userSourceAddress: "u",
    userDestinationAddress: "d",
    sourceNetworkType: chain === "evm" ? "EVM" : "TRON",
    now: nowMs,
  });
  return { quote, intent };
}

// ---------- mutations ----------

type Path = (string | number)[];

/** Every path to a value (objects and arrays included) inside `root`. */
function pathsOf(root: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [prefix];
  if (Array.isArray(root)) for (const [i, v] of root.entries()) out.push(...pathsOf(v, [...prefix, i]));
  else if (typeof root === "object" && root !== null)
    for (const [k, v] of Object.entries(root)) out.push(...pathsOf(v, [...prefix, k]));
  return out;
}

function getAt(root: unknown, path: Path): unknown {
  let node = root as Record<string | number, unknown>;
  for (const key of path) node = node?.[key] as Record<string | number, unknown>;
  return node;
}

const EVM_ADDRESSES = [
  sandbox.evm.escrow,
  sandbox.evm.permit2,
  sandbox.evm.user,
  sandbox.evm.quote.source_token,
  CANONICAL_PERMIT2_ADDRESS,
  "0x0000000000000000000000000000000000000000",
  "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE",
  "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
];
const TRON_ADDRESSES = EVM_ADDRESSES.map((a) => tronweb.TronWeb.address.fromHex(`41${a.slice(2)}`));
const PROTOTYPE_KEYS = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "prototype"];
const FIELD_NAMES = [
  ...new Set(pathsOf(sandbox.evm).flatMap((p) => p.filter((k): k is string => typeof k === "string"))),
];
const TRICKY_STRINGS = [
  "",
  "btc\nValid until 2099-01-01T00:00:00.000Z",
  "b\u202etc",
  "b\u200btc",
  "\ufeffbtc",
  "BTC",
  "Permit2",
  "permit2",
  "SwapWitness",
  "uint256",
  "string",
  "address",
  "bytes32",
  "1e3",
  "0x10",
  "-1",
  "007",
  `0x${"ab".repeat(32)}`,
  `0x${"AB".repeat(32)}`,
  `0x${"00".repeat(32)}`,
  "00000000-0000-0000-0000-000000000000",
  "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080".toUpperCase(),
  ...PROTOTYPE_KEYS,
  ...EVM_ADDRESSES,
  ...EVM_ADDRESSES.map((a) => a.toLowerCase()),
  ...TRON_ADDRESSES,
];
const TRICKY_NUMBERS = [
  0,
  1,
  -1,
  3,
  4,
  5,
  6,
  8,
  18,
  255,
  256,
  0.5,
  2 ** 31,
  2 ** 32,
  2 ** 53,
  1337001,
  1396788804,
];

/** A value to put somewhere: any JSON value, or one chosen to look almost right. */
function valueArbitrary(layer: "domain" | "wire"): fc.Arbitrary<unknown> {
  const values: fc.Arbitrary<unknown>[] = [
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom(...TRICKY_STRINGS),
    fc.constantFrom(...TRICKY_NUMBERS),
    fc.constantFrom(null, true, false, [], {}),
    fc.string({ unit: "binary", maxLength: 12 }),
  ];
  if (layer === "domain")
    values.push(
      fc.bigInt({ min: -(2n ** 257n), max: 2n ** 257n }),
      fc.constantFrom(undefined, 0n, 3_899n, 3_900n, 2_500_000n, 2_500_001n, 2n ** 256n - 1n, 2n ** 256n),
    );
  return fc.oneof(...values);
}

type Mutation =
  | { kind: "set"; at: number; value: unknown }
  | { kind: "delete"; at: number }
  | { kind: "add"; at: number; key: string; value: unknown }
  | { kind: "rename"; at: number; key: string }
  | { kind: "nudge"; at: number; by: number }
  | { kind: "edit"; at: number; how: number; char: string }
  | { kind: "pair"; pair: number; value: unknown };

/**
 * Quote fields and the witness values that must equal them: a "pair" mutation changes both alike, the way a
 * service that lies consistently would (with `rehash`, the witness hash matches too).
 */
const PAIRS: { quote: string; witness: string; wire: string }[] = [
  { quote: "destToken", witness: "destToken", wire: "dest_token" },
  { quote: "destChain", witness: "destChain", wire: "dest_chain" },
  { quote: "minDestAmountLots", witness: "minDestAmount", wire: "min_dest_amount_lots" },
  { quote: "maxDestAmountLots", witness: "maxDestAmount", wire: "max_dest_amount_lots" },
  { quote: "destAmountDecimals", witness: "", wire: "dest_amount_decimals" },
  { quote: "sourceAmountDecimals", witness: "", wire: "source_amount_decimals" },
];

function mutationArbitrary(layer: "domain" | "wire"): fc.Arbitrary<Mutation> {
  const at = fc.nat();
  const key = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS, ...FIELD_NAMES), fc.string({ maxLength: 8 }));
  return fc.oneof(
    fc.record({ kind: fc.constant("set" as const), at, value: valueArbitrary(layer) }),
    fc.record({ kind: fc.constant("delete" as const), at }),
    fc.record({ kind: fc.constant("add" as const), at, key, value: valueArbitrary(layer) }),
    fc.record({ kind: fc.constant("rename" as const), at, key }),
    fc.record({ kind: fc.constant("nudge" as const), at, by: fc.constantFrom(1, -1, 100, 0.01, 2 ** 32) }),
    fc.record({ kind: fc.constant("pair" as const), pair: fc.nat(), value: valueArbitrary(layer) }),
    fc.record({
      kind: fc.constant("edit" as const),
      at,
      how: fc.nat(4),
      char: fc.constantFrom("\n", "\u202e", "\u200b", "a", "A", "0", " ", "é", "\u0000"),
    }),
  );
}

/** Applies one mutation to `root` in place (a deep copy the test owns). */
function applyMutation(root: Record<string, unknown>, mutation: Mutation, layer: "domain" | "wire"): void {
  if (mutation.kind === "pair") {
    const pair = PAIRS[mutation.pair % PAIRS.length]!;
    const quote = root.quote as Record<string, unknown> | undefined;
    const additional = paramsOf(root, layer);
    if (typeof quote === "object" && quote !== null)
      quote[layer === "wire" ? pair.wire : pair.quote] = mutation.value;
    const witness = additional?.witness as Record<string, unknown> | undefined;
    if (pair.witness !== "" && typeof witness === "object" && witness !== null)
      witness[pair.witness] = typeof mutation.value === "bigint" ? `${mutation.value}` : mutation.value;
    return;
  }
  const paths = pathsOf(root).filter((p) => p.length > 0);
  const path = paths[mutation.at % paths.length]!;
  const parentPath = path.slice(0, -1);
  const last = path[path.length - 1]!;
  const parent = getAt(root, parentPath) as Record<string | number, unknown>;
  const current = parent[last];
  switch (mutation.kind) {
    case "set":
      parent[last] = mutation.value;
      return;
    case "delete":
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
      return;
    case "add": {
      const target = typeof current === "object" && current !== null ? current : parent;
      if (Array.isArray(target)) target.push(mutation.value);
      else
        Object.defineProperty(target, mutation.key, {
          value: mutation.value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return;
    }
    case "rename":
      if (Array.isArray(parent)) return;
      delete parent[last];
      Object.defineProperty(parent, mutation.key, {
        value: current,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return;
    case "nudge":
      if (typeof current === "number") parent[last] = current + mutation.by;
      else if (typeof current === "bigint") parent[last] = current + BigInt(Math.trunc(mutation.by) || 1);
      else if (typeof current === "string" && /^[0-9]+$/.test(current))
        parent[last] = String(BigInt(current) + BigInt(Math.trunc(mutation.by) || 1));
      else parent[last] = mutation.by;
      return;
    case "edit": {
      const text = typeof current === "string" ? current : String(current);
      const edits = [
        text.toUpperCase(),
        text.toLowerCase(),
        text + mutation.char,
        mutation.char + text,
        text.slice(0, -1),
      ];
      parent[last] = edits[mutation.how % edits.length];
      return;
    }
  }
}

/** `additional_data` of the (possibly mutated) intent, in either layer's spelling. */
function paramsOf(
  root: Record<string, unknown>,
  layer: "domain" | "wire",
): Record<string, unknown> | undefined {
  const intent = root.intent as Record<string, Record<string, unknown>> | undefined;
  const params = intent?.[layer === "wire" ? "params_to_sign" : "paramsToSign"];
  const additional = params?.[layer === "wire" ? "additional_data" : "additionalData"];
  return typeof additional === "object" && additional !== null
    ? (additional as Record<string, unknown>)
    : undefined;
}

/**
 * Recomputes `witness_hash` and `witness_type_string` from the (mutated) types and witness with ethers, an encoder
 * independent of the package, so that witness changes get past the hash check and reach the semantic checks.
 * Leaves them as they are when ethers cannot encode the mutated data.
 */
function rehash(root: Record<string, unknown>, layer: "domain" | "wire"): void {
  const additional = paramsOf(root, layer);
  if (additional === undefined) return;
  try {
    const { EIP712Domain: _, ...types } = additional.types as Record<
      string,
      { name: string; type: string }[]
    >;
    const primary = types.PermitWitnessTransferFrom as { name: string; type: string }[];
    const witnessType = primary[4]!.type;
    const witnessHash = TypedDataEncoder.hashStruct(
      witnessType,
      types,
      additional.witness as Record<string, unknown>,
    );
    const full = TypedDataEncoder.from(types).encodeType("PermitWitnessTransferFrom");
    const typeString = full.slice(full.indexOf(`${witnessType} witness)`));
    additional[layer === "wire" ? "witness_hash" : "witnessHash"] = witnessHash;
    additional[layer === "wire" ? "witness_type_string" : "witnessTypeString"] = typeString;
  } catch {
    // ethers refuses the mutated types or values: keep the stale hash (the signer must refuse it).
  }
}

/** A deep copy that keeps bigints (the parsed objects hold lots as bigint). */
function clone<T>(value: T): T {
  return structuredClone(value);
}

// ---------- the oracle ----------

const WITNESS_FIELDS = [
  "bytes32 intentId",
  "bytes32 secretHash",
  "uint256 destChain",
  "string destToken",
  "string recipient",
  "uint256 minDestAmount",
  "uint256 maxDestAmount",
].sort();

function sameDestination(a: unknown, b: string): boolean {
  return typeof a === "string" && (a === b || a.toLowerCase() === b.toLowerCase());
}

/** What was signed means exactly what the wallet expected. */
function assertMeansExpected(
  chain: Chain,
  base: Base,
  verified: VerifyPermit2ApprovalReturnType,
  nowMs: number,
): void {
  const hashed: Permit2TypedData = verified.hashedTypedData;
  // An independent encoder computes the same digest from the returned typed data.
  expect(hashTypedData(hashed as unknown as TypedDataDefinition)).toBe(verified.digest);
  const chainId = chain === "tron" ? Number(BigInt(base.chainId) & TRON_CHAIN_ID_MASK) : base.chainId;
  expect(hashed.domain).toEqual({
    name: "Permit2",
    chainId,
    verifyingContract: expect.any(String),
  });
  expect(hashed.domain.verifyingContract.toLowerCase()).toBe(anyAddressTo20(base.permit2));
  // Types: Permit2's own, with one witness struct holding exactly the seven fields.
  const { PermitWitnessTransferFrom: primary, TokenPermissions, ...rest } = hashed.types;
  expect(primary?.slice(0, 4)).toEqual([
    { name: "permitted", type: "TokenPermissions" },
    { name: "spender", type: "address" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ]);
  expect(TokenPermissions).toEqual([
    { name: "token", type: "address" },
    { name: "amount", type: "uint256" },
  ]);
  const witnessType = primary?.[4]?.type as string;
  expect(Object.keys(rest)).toEqual([witnessType]);
  expect(rest[witnessType]!.map((f) => `${f.type} ${f.name}`).sort()).toEqual(WITNESS_FIELDS);
  const { message } = hashed;
  expect(message.permitted.token.toLowerCase()).toBe(anyAddressTo20(base.quote.source_token));
  expect(message.permitted.amount).toBe(2_500_000n);
  expect(message.spender.toLowerCase()).toBe(anyAddressTo20(base.escrow));
  expect(message.deadline * 1000n > BigInt(nowMs)).toBe(true);
  expect(message.deadline * 1000n <= BigInt(nowMs) + BigInt(DEFAULT_MAX_DEADLINE_SECS) * 1000n).toBe(true);
  const w = message.witness;
  expect(w.intentId).toBe(`0x${"0".repeat(32)}${base.intent.intent_id.replaceAll("-", "")}`);
  expect(w.secretHash).toBe(base.intent.secret_hash);
  expect(w.destChain).toBe(4n);
  expect(sameDestination(w.destToken, "btc")).toBe(true);
  expect(sameDestination(w.recipient, base.recipient)).toBe(true);
  expect((w.minDestAmount as bigint) >= 3_900n).toBe(true);
  expect((w.maxDestAmount as bigint) >= (w.minDestAmount as bigint)).toBe(true);
  // The confirmation text carries no forged lines.
  for (const line of verified.summary.lines) expect(UNSAFE_TEXT.test(line)).toBe(false);
  // The amounts are shown with the decimals the wallet knows.
  expect(verified.summary.sources.destination).toBe("wallet");
  expect(verified.summary.destDecimals).toBe(8);
  expect(verified.summary.sourceDecimals).toBe(6);
  expect(verified.summary.amountLots).toBe(2_500_000n);
  expect(verified.summary.minDestAmountLots).toBe(w.minDestAmount);
}

/** Signs through the package's signer with a real key behind a spy; returns the outcome. */
async function signWithSpy(chain: Chain, parameters: VerifyPermit2ApprovalParameters) {
  if (chain === "evm") {
    const spy = vi.fn((typedData: Permit2TypedData) =>
      account.signTypedData(typedData as unknown as Parameters<typeof account.signTypedData>[0]),
    );
    const outcome = await signPermit2Approval({
      ...parameters,
      signer: { address: account.address, signTypedData: spy },
    }).then(
      (r) => ({ verified: r.verified, error: null }),
      (error: unknown) => ({ verified: null, error }),
    );
    return { ...outcome, calls: spy.mock.calls.length };
  }
  const spy = vi.fn(({ domain, types, message }: Permit2TypedData) =>
    tronweb.Trx.signTypedData(domain as never, types as never, message as never, USER_PRIVATE_KEY),
  );
  const outcome = await signTronPermit2Approval({
    ...parameters,
    signer: { address: sandbox.tron.user, signTypedData: spy },
  }).then(
    (r) => ({ verified: r.verified, error: null }),
    (error: unknown) => ({ verified: null, error }),
  );
  return { ...outcome, calls: spy.mock.calls.length };
}

async function checkCase(chain: Chain, parameters: VerifyPermit2ApprovalParameters): Promise<void> {
  const base = sandbox[chain];
  const { verified, error, calls } = await signWithSpy(chain, parameters);
  if (error !== null) {
    if (!isSwapIntentError(error) || !PERMIT2_CODES.has(error.code))
      throw new Error(`refused without a permit2 code: ${String(error)}`, { cause: error });
    expect(calls).toBe(0);
    // The error prints no service text raw: one message line per detail, none with an unsafe character.
    const lines = error.message.split("\n");
    expect(lines).toHaveLength(1 + Object.keys(error.details).length);
    for (const line of lines) expect(UNSAFE_TEXT.test(line)).toBe(false);
    tally.refused++;
    return;
  }
  expect(calls).toBe(1);
  assertMeansExpected(chain, base, verified!, base.nowMs);
  tally.signed++;
}

describe.each(["evm", "tron"] as const)(
  "generative tamper test on %s (sandbox-built params_to_sign)",
  (chain) => {
    const base = sandbox[chain];
    const common = {
      expected: expectationOf(base),
      allowedPermit2Addresses: [base.permit2],
      nowMs: base.nowMs,
    };

    it("the untampered sandbox permit signs and means what the wallet expected", async () => {
      const parsed = await parseWithClient(chain, { quote: base.quote, intent: base.intent }, base.nowMs);
      const { verified, calls } = await signWithSpy(chain, { ...parsed, ...common });
      expect(calls).toBe(1);
      assertMeansExpected(chain, base, verified!, base.nowMs);
    });

    it(
      "any mutation of the parsed intent and quote is refused with a permit2 code before the key, or means the same",
      async () => {
        const parsed = await parseWithClient(chain, { quote: base.quote, intent: base.intent }, base.nowMs);
        await fc.assert(
          fc.asyncProperty(
            fc.array(mutationArbitrary("domain"), { minLength: 1, maxLength: 3 }),
            fc.boolean(),
            async (mutations, rehashed) => {
              const root = clone({ intent: parsed.intent, quote: parsed.quote }) as Record<string, unknown>;
              for (const m of mutations) applyMutation(root, m, "domain");
              if (rehashed) rehash(root, "domain");
              tally.cases++;
              tally.mutations += mutations.length;
              await checkCase(chain, {
                intent: root.intent as Intent,
                quote: root.quote as Quote,
                ...common,
              });
            },
          ),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
      },
      TIMEOUT_MS,
    );

    it(
      "a value that answers its first reads one way and later reads another is refused before the key, or means the same",
      async () => {
        const parsed = await parseWithClient(chain, { quote: base.quote, intent: base.intent }, base.nowMs);
        await fc.assert(
          fc.asyncProperty(
            fc.array(mutationArbitrary("domain"), { minLength: 0, maxLength: 2 }),
            fc.boolean(),
            fc.record({
              at: fc.nat(),
              value: valueArbitrary("domain"),
              reads: fc.nat(4),
              flip: fc.boolean(),
            }),
            async (mutations, rehashed, accessor) => {
              const root = clone({ intent: parsed.intent, quote: parsed.quote }) as Record<string, unknown>;
              for (const m of mutations) applyMutation(root, m, "domain");
              if (rehashed) rehash(root, "domain");
              // Any value below the root: its first `reads` reads answer one value, the later ones the other.
              const paths = pathsOf(root).filter((p) => p.length > 1);
              const path = paths[accessor.at % Math.max(paths.length, 1)];
              // (Earlier mutations may have left no value below the root to turn into an accessor.)
              if (path !== undefined) {
                const parent = getAt(root, path.slice(0, -1)) as Record<string | number, unknown>;
                const key = path[path.length - 1]!;
                const [first, later] = accessor.flip
                  ? [accessor.value, parent[key]]
                  : [parent[key], accessor.value];
                let count = 0;
                Object.defineProperty(parent, key, {
                  enumerable: true,
                  configurable: true,
                  get: () => (count++ < accessor.reads ? first : later),
                });
              }
              tally.cases++;
              tally.mutations += mutations.length + 1;
              await checkCase(chain, {
                intent: root.intent as Intent,
                quote: root.quote as Quote,
                ...common,
              });
            },
          ),
          { numRuns: RUNS, seed: SEED + 2, endOnFailure: true },
        );
      },
      TIMEOUT_MS,
    );

    it(
      "any mutation of the wire JSON is refused by the client or by the signer before the key, or means the same",
      async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.array(mutationArbitrary("wire"), { minLength: 1, maxLength: 3 }),
            fc.boolean(),
            async (mutations, rehashed) => {
              const root = JSON.parse(JSON.stringify({ quote: base.quote, intent: base.intent }));
              for (const m of mutations) applyMutation(root, m, "wire");
              if (rehashed) rehash(root, "wire");
              tally.cases++;
              tally.mutations += mutations.length;
              let parsed: { quote: Quote; intent: Intent };
              try {
                parsed = await parseWithClient(chain, root, base.nowMs);
              } catch (error) {
                // The client is the edge: a body it cannot parse is refused there, with its own code.
                if (!isSwapIntentError(error)) throw error;
                tally.refusedByClient++;
                return;
              }
              await checkCase(chain, { ...parsed, ...common });
            },
          ),
          { numRuns: RUNS, seed: SEED + 1, endOnFailure: true },
        );
      },
      TIMEOUT_MS,
    );
  },
);

afterAll(() => {
  // The count the issue asks for; printed so CI logs and the fuzz script show it.
  console.info(
    `permit2 generative tamper test: ${tally.mutations} mutations in ${tally.cases} cases (seed ${SEED}): ` +
      `${tally.refused} refused by the signer, ${tally.refusedByClient} by the client, ${tally.signed} signed as expected`,
  );
});
