/**
 * The response schemas as they were on valibot (commit 3e624e8, before the schema module), kept verbatim for the
 * differential test (src/internal/wire.differential.test.ts) only.
 *
 * Wire schemas (valibot) and their mapping to domain types. Every response passes through here:
 * a body that fails its schema becomes `RESPONSE_INVALID` (the transport adds the raw body).
 */
import * as v from "valibot";
import { createClientError } from "../src/errors/codes.js";
import type {
  HexString,
  Intent,
  IntentStatus,
  KnownIntentStatus,
  Network,
  Page,
  Permit2Params,
  Quote,
  SwapHistoryItem,
  SwapStatus,
  TokenInfo,
} from "../src/types.js";

/** `snake_case` to `camelCase`, as a type: the domain name of a wire field. */
type Camel<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<Camel<Tail>>}`
  : S;
/** An object type with every key renamed to its domain (camelCase) name; optional keys stay optional. */
type Renamed<T> = { [K in keyof T as K extends string ? Camel<K> : K]: T[K] };

/**
 * A valibot object over the wire keys whose output carries the domain (camelCase) keys: the object is checked
 * by valibot, then copied once under the new names (a key whose value is `undefined` is left out).
 */
/* @__NO_SIDE_EFFECTS__ */
function wireObject<const E extends v.ObjectEntries>(entries: E) {
  const names = Object.keys(entries).map((key) => [
    key,
    key.replace(/_(.)/g, (_, c: string) => c.toUpperCase()),
  ]);
  return v.pipe(
    v.object(entries),
    v.transform((wire) => {
      const out: Record<string, unknown> = {};
      for (const [key, name] of names as [string, string][]) {
        const value = (wire as Record<string, unknown>)[key];
        if (value !== undefined) out[name] = value;
      }
      return out as Renamed<v.InferOutput<v.ObjectSchema<E, undefined>>>;
    }),
  );
}

/** The small pieces the schemas share, built with the first schema. */
function buildPieces() {
  const str = v.string();
  const int = v.pipe(v.number(), v.safeInteger());
  const nonNegativeInt = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
  // the range formatLots and formatAmount accept: a larger count would only fail later, at display
  const decimals = v.pipe(nonNegativeInt, v.maxValue(255));
  // at most 78 digits, a uint256's width: a longer text is no amount, and turning megabytes of digits into a
  // bigint costs seconds of CPU (about 0.2 s per million digits)
  const digits = v.pipe(
    str,
    v.regex(/^[0-9]{1,78}$/, "expected an integer decimal string of at most 78 digits"),
  );
  /**
   * Lots: a decimal integer string of at most 78 digits (tolerated: a non-negative safe integer number).
   * Decimals, signs, exponents and longer texts are rejected.
   */
  const lots = v.union([digits, nonNegativeInt]);
  const lotsBigint = v.pipe(
    lots,
    v.transform((value: string | number) => BigInt(value)),
  );
  // ISO 8601 by form first: `Date.parse` alone also takes "1", "-5" or "March 7" (as dates in 2001)
  const isoDate = v.pipe(
    str,
    v.check(
      (value) =>
        /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(value) &&
        !Number.isNaN(Date.parse(value)) &&
        // a day the month has: `Date.parse` reads 2026-02-31 as March 3
        new Date(`${value.slice(0, 10)}T00:00:00Z`).getUTCDate() === Number(value.slice(8, 10)),
      "expected an ISO 8601 date",
    ),
    v.transform((value) => new Date(value)),
  );
  /** A stage not reached is `null`, whether the service sent `null` or left the field out. */
  const nullableString = v.nullish(str, null);
  const nullableDate = v.nullish(isoDate, null);
  const hex32 = v.pipe(str, v.regex(/^0x[0-9a-fA-F]{64}$/, "expected 0x-prefixed 32-byte hex"));
  return { str, int, nonNegativeInt, decimals, lots, lotsBigint, nullableString, nullableDate, hex32 };
}

type Pieces = ReturnType<typeof buildPieces>;
let pieces: Pieces | undefined;

/**
 * A schema built on its first use, so importing this module builds nothing. Pure: a bundle keeps only the
 * schemas of the parse functions it imports (an app with `createBaseClient` and one action, only that one's).
 */
/* @__NO_SIDE_EFFECTS__ */
function lazySchema<T>(build: (pieces: Pieces) => T): () => T {
  let built: T | undefined;
  return () => {
    pieces ??= buildPieces();
    built ??= build(pieces);
    return built;
  };
}

const quoteSchema = /* @__PURE__ */ lazySchema(
  ({ str, int, nonNegativeInt, decimals, lots, lotsBigint, nullableString }) =>
    wireObject({
      id: str,
      source_chain: int,
      source_token: str,
      dest_chain: int,
      dest_token: str,
      intermediate_token: nullableString,
      intermediate_token_amount_min: v.nullish(lotsBigint, null),
      intermediate_token_amount_max: v.nullish(lotsBigint, null),
      intermediate_token_decimals: v.nullish(decimals, null),
      source_amount_lots: lotsBigint,
      source_amount_decimals: decimals,
      min_dest_amount_lots: lotsBigint,
      max_dest_amount_lots: lotsBigint,
      dest_amount_decimals: decimals,
      slippage_bps: lots,
      // the spec sends milliseconds; a value below 10^12 is taken as seconds and converted
      expiry: v.pipe(
        nonNegativeInt,
        v.transform((value) => (value < 1e12 ? value * 1000 : value)),
      ),
      swap_type: str,
    }),
);

const permit2Schema = /* @__PURE__ */ lazySchema(({ str, lotsBigint, hex32 }) =>
  wireObject({
    escrow_contract_address: str,
    permit2_contract_address: str,
    resolver_deposit_address: str,
    nonce: lotsBigint,
    additional_data: wireObject({
      domain: v.record(str, v.unknown()),
      types: v.record(str, v.array(v.object({ name: str, type: str }))),
      witness: v.record(str, v.unknown()),
      secretHash: v.optional(str),
      witness_type_string: str,
      witness_hash: hex32,
    }),
  }),
);
const htlcSchema = /* @__PURE__ */ lazySchema(({ str, nonNegativeInt }) =>
  v.object({ psbt: str, inputs: v.array(nonNegativeInt) }),
);
const cosignSchema = /* @__PURE__ */ lazySchema(({ str }) => v.object({ transaction: str }));
const intentSchema = /* @__PURE__ */ lazySchema(({ str, nonNegativeInt, hex32 }) =>
  wireObject({
    intent_id: str,
    deadline_secs: nonNegativeInt,
    secret_hash: hex32,
    approval_mechanism: str,
    params_to_sign: v.unknown(),
  }),
);

/** The fields of a swap status record (spec 2.3), shared by a history item. */
const statusEntries = /* @__PURE__ */ lazySchema(
  ({ str, int, decimals, lotsBigint, nullableString, nullableDate }) => ({
    intent_id: str,
    status: str,
    swap_metadata: wireObject({
      id: v.optional(str, ""),
      proxy_address: nullableString,
      user_deposit_tx: nullableString,
      fulfill_tx: nullableString,
      swap_tx: nullableString,
      created_at: nullableDate,
      user_deposited_at: nullableDate,
      kyc_requested_at: nullableDate,
      fulfilled_at: nullableDate,
      swapped_at: nullableDate,
      refunded_at: nullableDate,
    }),
    source_amount_decimals: decimals,
    source_amount_lots: lotsBigint,
    source_chain: int,
    source_token: str,
    dest_amount_decimals: decimals,
    dest_chain: int,
    dest_token: str,
    min_dest_amount_lots: lotsBigint,
    max_dest_amount_lots: lotsBigint,
  }),
);
const statusSchema = /* @__PURE__ */ lazySchema(() => wireObject(statusEntries()));
const historyPageSchema = /* @__PURE__ */ lazySchema(({ nonNegativeInt, nullableString }) =>
  v.object({
    items: v.array(wireObject({ ...statusEntries(), kyc_link: nullableString })),
    limit: nonNegativeInt,
    offset: nonNegativeInt,
    total: nonNegativeInt,
  }),
);

const networksSchema = /* @__PURE__ */ lazySchema(({ str, int }) =>
  v.array(
    wireObject({
      id: int,
      name: str,
      type: str,
      supports_optimized_swap: v.boolean(),
      icon_url: str,
      supports_custom_tokens: v.boolean(),
    }),
  ),
);
// the hot list: a plain object schema and one literal copy (see parseTokensPage), no per-token transform
const tokensPageSchema = /* @__PURE__ */ lazySchema(({ str, int, nonNegativeInt }) =>
  v.object({
    data: v.array(
      v.object({
        network_id: int,
        name: str,
        contract_address: str,
        symbol: str,
        icon_url: str,
        wrapped_token_address: v.nullish(str),
      }),
    ),
    pagination: v.object({
      limit: nonNegativeInt,
      offset: nonNegativeInt,
      pages: v.optional(nonNegativeInt),
      total: nonNegativeInt,
    }),
  }),
);

/**
 * Issue texts say what was expected, never the value received (a server string could be huge or hold a secret).
 * Parsing stops at the first issue: collecting all of them for a 3 MB list of a million `{}` took 33 s and
 * 2.7 GB of heap.
 */
const parseConfig = { message: describeIssue, abortEarly: true };

function check<S extends v.GenericSchema>(schema: S, json: unknown, what: string): v.InferOutput<S> {
  const result = v.safeParse(schema, json, parseConfig);
  if (result.success) return result.output;
  const issues = result.issues.slice(0, 10).map((issue) => ({
    path: v.getDotPath(issue) ?? "",
    message: issue.message,
  }));
  const first = issues[0];
  throw createClientError(
    "RESPONSE_INVALID",
    `The response is not a valid ${what}${first ? ` (${first.path || "body"}: ${first.message})` : ""}.`,
    { issues },
  );
}

function describeIssue(issue: v.BaseIssue<unknown>): string {
  if (issue.type === "object" && issue.received === "undefined" && issue.expected?.startsWith('"'))
    return "missing";
  switch (issue.type) {
    case "safe_integer":
      return "expected an integer";
    case "min_value":
      return `expected at least ${issue.requirement}`;
    case "max_value":
      return `expected at most ${issue.requirement}`;
    default:
      return `expected ${(issue.expected ?? "another form").replace(/[()]/g, "").replaceAll(" | ", " or ")}`;
  }
}

const statusAliases: Record<string, KnownIntentStatus> = {
  Initiated: "Initiated",
  ApprovalAdded: "ApprovalAdded",
  Accepted: "Accepted",
  Declined: "Declined",
  UserDeposited: "UserDeposited",
  Fulfilled: "Fulfilled",
  Expired: "Expired",
  // The spec spells it `RefundRquested`; the corrected spelling is tolerated. Both parse to `RefundRequested`.
  RefundRquested: "RefundRequested",
  RefundRequested: "RefundRequested",
  Refunded: "Refunded",
};

/** Maps a wire status to the domain status; an unknown value becomes `"Unknown"` (the caller keeps `rawStatus`). */
export function toIntentStatus(raw: string): IntentStatus {
  return Object.hasOwn(statusAliases, raw) ? (statusAliases[raw] as KnownIntentStatus) : "Unknown";
}

/** The domain status next to the service's text (`rawStatus`). */
function withStatus<T extends { status: string }>(
  record: T,
): Omit<T, "status"> & { status: IntentStatus; rawStatus: string } {
  // `record` is the schema's fresh output, so it is completed in place rather than copied
  const completed = record as unknown as { status: IntentStatus; rawStatus: string };
  completed.rawStatus = record.status;
  completed.status = toIntentStatus(record.status);
  return completed as unknown as Omit<T, "status"> & { status: IntentStatus; rawStatus: string };
}

/** Parses a Quote body (spec 2.1). */
export function parseQuote(json: unknown): Quote {
  const { expiry, ...quote } = check(quoteSchema(), json, "quote");
  const slippageBps = Number(quote.slippageBps);
  if (slippageBps > 10_000) {
    throw createClientError("RESPONSE_INVALID", "The quote's slippage_bps is above 10000.", {
      issues: [{ path: "slippage_bps", message: "expected 0..10000" }],
    });
  }
  return { ...quote, slippageBps, expiryMs: expiry };
}

/** Parses an intent creation result (spec 2.2, 4.3). */
export function parseIntent(json: unknown): Intent {
  const { approvalMechanism, paramsToSign, ...base } = check(intentSchema(), json, "intent");
  const intent = { ...base, secretHash: base.secretHash as HexString };
  switch (approvalMechanism) {
    case "permit2":
      return {
        ...intent,
        approvalMechanism,
        paramsToSign: check(permit2Schema(), paramsToSign, "permit2 params_to_sign") as Permit2Params,
      };
    case "htlc":
      return {
        ...intent,
        approvalMechanism,
        paramsToSign: check(htlcSchema(), paramsToSign, "htlc params_to_sign"),
      };
    case "cosign":
      return {
        ...intent,
        approvalMechanism,
        paramsToSign: check(cosignSchema(), paramsToSign, "cosign params_to_sign"),
      };
    default:
      throw createClientError("RESPONSE_INVALID", `Unknown approval_mechanism "${approvalMechanism}".`, {
        issues: [{ path: "approval_mechanism", message: "expected permit2, htlc or cosign" }],
      });
  }
}

/** Parses a swap status record (spec 2.3). */
export function parseSwapStatus(json: unknown): SwapStatus {
  return withStatus(check(statusSchema(), json, "swap status record"));
}

/** Parses a page of swap history (spec 4.7). */
export function parseHistoryPage(json: unknown): Page<SwapHistoryItem> {
  const page = check(historyPageSchema(), json, "swap history page");
  return { ...page, items: page.items.map(withStatus) };
}

/** Parses the networks catalogue (spec 4.5). */
export function parseNetworks(json: unknown): Network[] {
  return check(networksSchema(), json, "network list");
}

/** Parses a page of tokens (spec 4.6). An empty `wrapped_token_address` becomes `null`. */
export function parseTokensPage(json: unknown): Page<TokenInfo> {
  const page = check(tokensPageSchema(), json, "token page");
  return {
    items: page.data.map((t) => ({
      networkId: t.network_id,
      name: t.name,
      contractAddress: t.contract_address,
      symbol: t.symbol,
      iconUrl: t.icon_url,
      wrappedTokenAddress: t.wrapped_token_address ? t.wrapped_token_address : null,
    })),
    limit: page.pagination.limit,
    offset: page.pagination.offset,
    total: page.pagination.total,
  };
}
