/**
 * Wire schemas and their mapping to domain types. Every response passes through here: a body that fails its
 * schema becomes `RESPONSE_INVALID` (the transport adds the raw body). The schemas (`./schema/schema.ts`) check
 * and build the domain value in one pass, under the domain names; parsing stops at the first issue.
 */
import { clientError } from "../errors/codes.js";
import type {
  Intent,
  IntentStatus,
  KnownIntentStatus,
  Network,
  Page,
  Quote,
  SwapHistoryItem,
  SwapStatus,
  TokenInfo,
} from "../types.js";
import { wireIntentStatuses } from "../wireIntentStatuses.js";
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
} from "./schema/schema.js";

const int = /* @__PURE__ */ integer();
const nonNegativeInt = /* @__PURE__ */ integer(0);
// the range formatLots and formatAmount accept: a larger count would only fail later, at display
const decimals = /* @__PURE__ */ integer(0, 255);
const lotsMessage = "expected an integer decimal string of at most 78 digits";
/**
 * Lots: a decimal integer string of at most 78 digits, a uint256's width (tolerated: a non-negative safe integer
 * number). Decimals, signs, exponents and longer texts are rejected: turning megabytes of digits into a bigint
 * costs seconds of CPU (about 0.2 s per million digits).
 */
const lots: Schema<string | number> = (input) =>
  typeof input === "number"
    ? nonNegativeInt(input)
    : typeof input === "string" && /^[0-9]{1,78}$/.test(input)
      ? input
      : fail(lotsMessage);
const lotsBigint = /* @__PURE__ */ map(lots, BigInt);
const isoDateMessage = "expected an ISO 8601 date";
// ISO 8601 by form first: `Date.parse` alone also takes "1", "-5" or "March 7" (as dates in 2001)
const isoDate = /* @__PURE__ */ map(
  pattern(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/, isoDateMessage),
  (value) => {
    // the spec's timestamps are UTC: a date-time without an offset is read as UTC, where `Date` would read it in
    // the wallet's own time zone (the same body, another instant on each machine)
    const date = new Date(/T[^Z+-]*$/.test(value) ? `${value}Z` : value);
    // a day the month has: `Date.parse` reads 2026-02-31 as March 3
    if (
      Number.isNaN(date.getTime()) ||
      new Date(`${value.slice(0, 10)}T00:00:00Z`).getUTCDate() !== Number(value.slice(8, 10))
    )
      fail(isoDateMessage);
    return date;
  },
);
/** A stage not reached is `null`, whether the service sent `null` or left the field out. */
const nullableString = /* @__PURE__ */ nullable(string);
const nullableDate = /* @__PURE__ */ nullable(isoDate);
const hex32 = /* @__PURE__ */ pattern(/^0x[0-9a-fA-F]{64}$/, "expected 0x-prefixed 32-byte hex");

const quoteSchema = /* @__PURE__ */ object({
  id: string,
  source_chain: int,
  source_token: string,
  dest_chain: int,
  dest_token: string,
  intermediate_token: nullableString,
  intermediate_token_amount_min: nullable(lotsBigint),
  intermediate_token_amount_max: nullable(lotsBigint),
  intermediate_token_decimals: nullable(decimals),
  source_amount_lots: lotsBigint,
  source_amount_decimals: decimals,
  min_dest_amount_lots: lotsBigint,
  max_dest_amount_lots: lotsBigint,
  dest_amount_decimals: decimals,
  // basis points: at most 10000 (100 %)
  slippage_bps: map(lots, (value) => (Number(value) > 10_000 ? fail("expected 0..10000") : Number(value))),
  // the spec sends milliseconds; a value below 10^12 is taken as seconds and converted
  expiry: map(nonNegativeInt, (value) => (value < 1e12 ? value * 1000 : value)),
  swap_type: string,
});

const permit2Schema = /* @__PURE__ */ object({
  escrow_contract_address: string,
  permit2_contract_address: string,
  resolver_deposit_address: string,
  nonce: lotsBigint,
  additional_data: object({
    domain: record(json),
    types: record(array(object({ name: string, type: string }))),
    witness: record(json),
    secretHash: optional(string),
    witness_type_string: string,
    witness_hash: hex32,
  }),
});
const htlcSchema = /* @__PURE__ */ object({ psbt: string, inputs: array(nonNegativeInt) });
const cosignSchema = /* @__PURE__ */ object({ transaction: string });
const intentSchema = /* @__PURE__ */ object({
  intent_id: string,
  deadline_secs: nonNegativeInt,
  secret_hash: hex32,
  approval_mechanism: pattern(/^(permit2|htlc|cosign)$/, "expected permit2, htlc or cosign"),
  params_to_sign: unknown,
});

/** The fields of a swap status record (spec 2.3), shared by a history item. */
const statusEntries = {
  intent_id: string,
  status: string,
  swap_metadata: /* @__PURE__ */ object({
    id: optional(string, ""),
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
  source_token: string,
  dest_amount_decimals: decimals,
  dest_chain: int,
  dest_token: string,
  min_dest_amount_lots: lotsBigint,
  max_dest_amount_lots: lotsBigint,
};
const statusSchema = /* @__PURE__ */ object(statusEntries);
const historyPageSchema = /* @__PURE__ */ object({
  items: array(object(statusEntries, { kyc_link: nullableString })),
  limit: nonNegativeInt,
  offset: nonNegativeInt,
  total: nonNegativeInt,
});

const networksSchema = /* @__PURE__ */ array(
  object({
    id: int,
    name: string,
    type: string,
    supports_optimized_swap: boolean,
    icon_url: string,
    supports_custom_tokens: boolean,
  }),
);
const tokensPageSchema = /* @__PURE__ */ object({
  data: array(
    object({
      network_id: int,
      name: string,
      contract_address: string,
      symbol: string,
      icon_url: string,
      // an empty address is no address (an absent or null one is `null` with no call to the mapping)
      wrapped_token_address: optional(
        map(string, (value) => value || null),
        null,
        true,
      ),
    }),
  ),
  pagination: object({
    limit: nonNegativeInt,
    offset: nonNegativeInt,
    pages: optional(nonNegativeInt),
    total: nonNegativeInt,
  }),
});

/**
 * Runs `schema` over `json`. Issue texts say what was expected, never the value received (a server string could
 * be huge or hold a secret); parsing stops at the first issue (collecting all of them for a 3 MB list of a
 * million `{}` once took 33 s and 2.7 GB of heap).
 */
function check<T>(schema: Schema<T>, body: unknown): T {
  try {
    return schema(body);
  } catch (error) {
    // anything else a schema throws (a bug, an exhausted stack) is still a response the client cannot use
    const issue = error instanceof SchemaIssue ? error : new SchemaIssue("could not be checked");
    const path = issue.path.join(".");
    throw clientError("RESPONSE_INVALID", { issues: [{ path, message: issue.message }] });
  }
}

/**
 * Maps a wire status to the domain status; an unknown value becomes `"Unknown"` (the caller keeps `rawStatus`).
 * The known ones are `wireIntentStatuses`; the spec spells one `RefundRquested`, and the corrected spelling is
 * tolerated: both parse to `RefundRequested`.
 */
export function toIntentStatus(raw: string): IntentStatus {
  if (raw === "RefundRquested" || raw === "RefundRequested") return "RefundRequested";
  return (wireIntentStatuses as readonly string[]).includes(raw) ? (raw as KnownIntentStatus) : "Unknown";
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
  const { expiry, ...quote } = check(quoteSchema, json);
  return { ...quote, expiryMs: expiry };
}

/** The `params_to_sign` schema of each approval mechanism (`approval_mechanism` is checked to be one of them). */
const paramsSchemas: Record<string, Schema<unknown>> = {
  permit2: permit2Schema,
  htlc: htlcSchema,
  cosign: cosignSchema,
};

/** Parses an intent creation result (spec 2.2, 4.3). */
export function parseIntent(json: unknown): Intent {
  const intent = check(intentSchema, json);
  const mechanism = intent.approvalMechanism;
  // the intent is the schema's fresh output, so its params are replaced in place
  intent.paramsToSign = check(paramsSchemas[mechanism] as Schema<unknown>, intent.paramsToSign);
  return intent as Intent;
}

/** Parses a swap status record (spec 2.3). */
export function parseSwapStatus(json: unknown): SwapStatus {
  return withStatus(check(statusSchema, json));
}

/** Parses a page of swap history (spec 4.7). */
export function parseHistoryPage(json: unknown): Page<SwapHistoryItem> {
  const page = check(historyPageSchema, json);
  return { ...page, items: page.items.map(withStatus) };
}

/** Parses the networks catalogue (spec 4.5). */
export function parseNetworks(json: unknown): Network[] {
  return check(networksSchema, json);
}

/** Parses a page of tokens (spec 4.6). An empty `wrapped_token_address` becomes `null`. */
export function parseTokensPage(json: unknown): Page<TokenInfo> {
  const { data, pagination } = check(tokensPageSchema, json);
  return { items: data, limit: pagination.limit, offset: pagination.offset, total: pagination.total };
}
