/**
 * Wire schemas (valibot) and their mapping to domain types. Every response passes through here:
 * a body that fails its schema becomes `RESPONSE_INVALID` (the transport adds the raw body).
 */
import * as v from "valibot";
import { BaseError } from "../errors/baseError.js";
import type {
  Intent,
  IntentStatus,
  KnownIntentStatus,
  Network,
  Page,
  Quote,
  SwapHistoryItem,
  SwapMetadata,
  SwapStatus,
  Token,
} from "../types.js";

/** Builds the schemas on first use, so importing this module costs nothing until a response is parsed. */
function buildSchemas() {
  const str = v.string();
  const int = v.pipe(v.number(), v.safeInteger());
  const nonNegativeInt = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
  const digits = v.pipe(str, v.regex(/^[0-9]+$/, "expected an integer decimal string"));
  /** Lots: a decimal integer string (tolerated: a non-negative safe integer number). Decimals are rejected. */
  const lots = v.union([digits, nonNegativeInt]);
  const isoDate = v.pipe(
    str,
    v.check((value) => !Number.isNaN(Date.parse(value)), "expected an ISO 8601 date"),
  );
  const nullableString = v.nullish(str);
  const hex32 = v.pipe(str, v.regex(/^0x[0-9a-fA-F]{64}$/, "expected 0x-prefixed 32-byte hex"));

  const quoteSchema = v.object({
    id: str,
    source_chain: int,
    source_token: str,
    dest_chain: int,
    dest_token: str,
    intermediate_token: nullableString,
    intermediate_token_amount_min: v.nullish(lots),
    intermediate_token_amount_max: v.nullish(lots),
    intermediate_token_decimals: v.nullish(nonNegativeInt),
    source_amount_lots: lots,
    source_amount_decimals: nonNegativeInt,
    min_dest_amount_lots: lots,
    max_dest_amount_lots: lots,
    dest_amount_decimals: nonNegativeInt,
    slippage_bps: lots,
    expiry: nonNegativeInt,
    swap_type: str,
  });

  const typedDataField = v.object({ name: str, type: str });
  const unknownRecord = v.record(str, v.unknown());
  const permit2Schema = v.object({
    escrow_contract_address: str,
    permit2_contract_address: str,
    resolver_deposit_address: str,
    nonce: lots,
    additional_data: v.object({
      domain: unknownRecord,
      types: v.record(str, v.array(typedDataField)),
      witness: unknownRecord,
      secretHash: v.optional(str),
      witness_type_string: str,
      witness_hash: hex32,
    }),
  });
  const htlcSchema = v.object({ psbt: str, inputs: v.array(nonNegativeInt) });
  const cosignSchema = v.object({ transaction: str });
  const intentSchema = v.object({
    intent_id: str,
    deadline_secs: nonNegativeInt,
    secret_hash: hex32,
    approval_mechanism: str,
    params_to_sign: v.unknown(),
  });

  const nullableDate = v.nullish(isoDate);
  const metadataSchema = v.object({
    id: v.optional(str),
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
  });
  const statusShape = {
    intent_id: str,
    status: str,
    swap_metadata: metadataSchema,
    source_amount_decimals: nonNegativeInt,
    source_amount_lots: lots,
    source_chain: int,
    source_token: str,
    dest_amount_decimals: nonNegativeInt,
    dest_chain: int,
    dest_token: str,
    min_dest_amount_lots: lots,
    max_dest_amount_lots: lots,
  };
  const statusSchema = v.object(statusShape);
  const historyItemSchema = v.object({ ...statusShape, kyc_link: nullableString });
  const historyPageSchema = v.object({
    items: v.array(historyItemSchema),
    limit: nonNegativeInt,
    offset: nonNegativeInt,
    total: nonNegativeInt,
  });

  const networkSchema = v.object({
    id: int,
    name: str,
    type: str,
    supports_optimized_swap: v.boolean(),
    icon_url: str,
    supports_custom_tokens: v.boolean(),
  });
  const networksSchema = v.array(networkSchema);
  const tokenSchema = v.object({
    network_id: int,
    name: str,
    contract_address: str,
    symbol: str,
    icon_url: str,
    wrapped_token_address: nullableString,
  });
  const tokensPageSchema = v.object({
    data: v.array(tokenSchema),
    pagination: v.object({
      limit: nonNegativeInt,
      offset: nonNegativeInt,
      pages: v.optional(nonNegativeInt),
      total: nonNegativeInt,
    }),
  });
  return {
    quoteSchema,
    permit2Schema,
    htlcSchema,
    cosignSchema,
    intentSchema,
    metadataSchema,
    statusSchema,
    historyPageSchema,
    networksSchema,
    tokensPageSchema,
  };
}

type Schemas = ReturnType<typeof buildSchemas>;
let built: Schemas | undefined;
const schemas = (): Schemas => {
  built ??= buildSchemas();
  return built;
};

/** Issue texts say what was expected, never the value received (a server string could be huge or hold a secret). */
const parseConfig = { message: describeIssue };

function check<S extends v.GenericSchema>(schema: S, json: unknown, what: string): v.InferOutput<S> {
  const result = v.safeParse(schema, json, parseConfig);
  if (result.success) return result.output;
  const issues = result.issues.slice(0, 10).map((issue) => ({
    path: v.getDotPath(issue) ?? "",
    message: issue.message,
  }));
  const first = issues[0];
  throw new BaseError(
    "RESPONSE_INVALID",
    `The response is not a valid ${what}${first ? ` (${first.path || "body"}: ${first.message})` : ""}.`,
    {
      details: { issues },
    },
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
    default:
      return `expected ${(issue.expected ?? "another form").replace(/[()]/g, "").replaceAll(" | ", " or ")}`;
  }
}

const toLots = (value: string | number): bigint => BigInt(value);
const toDate = (value: string | null | undefined): Date | null => (value == null ? null : new Date(value));

/** `expiry` in ms: the spec sends milliseconds; a value below 10^12 is taken as seconds and converted. */
const toExpiryMs = (value: number): number => (value < 1e12 ? value * 1000 : value);

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

/** Parses a Quote body (spec 2.1). */
export function parseQuote(json: unknown): Quote {
  const q = check(schemas().quoteSchema, json, "quote");
  const slippageBps = Number(q.slippage_bps);
  if (slippageBps > 10_000) {
    throw new BaseError("RESPONSE_INVALID", "The quote's slippage_bps is above 10000.", {
      details: { issues: [{ path: "slippage_bps", message: "expected 0..10000" }] },
    });
  }
  return {
    id: q.id,
    sourceChain: q.source_chain,
    sourceToken: q.source_token,
    destChain: q.dest_chain,
    destToken: q.dest_token,
    intermediateToken: q.intermediate_token ?? null,
    intermediateTokenAmountMin:
      q.intermediate_token_amount_min == null ? null : toLots(q.intermediate_token_amount_min),
    intermediateTokenAmountMax:
      q.intermediate_token_amount_max == null ? null : toLots(q.intermediate_token_amount_max),
    intermediateTokenDecimals: q.intermediate_token_decimals ?? null,
    sourceAmountLots: toLots(q.source_amount_lots),
    sourceAmountDecimals: q.source_amount_decimals,
    minDestAmountLots: toLots(q.min_dest_amount_lots),
    maxDestAmountLots: toLots(q.max_dest_amount_lots),
    destAmountDecimals: q.dest_amount_decimals,
    slippageBps,
    expiryMs: toExpiryMs(q.expiry),
    swapType: q.swap_type,
  };
}

/** Parses an intent creation result (spec 2.2, 4.3). */
export function parseIntent(json: unknown): Intent {
  const i = check(schemas().intentSchema, json, "intent");
  const base = {
    intentId: i.intent_id,
    deadlineSecs: i.deadline_secs,
    secretHash: i.secret_hash as `0x${string}`,
  };
  switch (i.approval_mechanism) {
    case "permit2": {
      const p = check(schemas().permit2Schema, i.params_to_sign, "permit2 params_to_sign");
      const a = p.additional_data;
      return {
        ...base,
        approvalMechanism: "permit2",
        paramsToSign: {
          escrowContractAddress: p.escrow_contract_address,
          permit2ContractAddress: p.permit2_contract_address,
          resolverDepositAddress: p.resolver_deposit_address,
          nonce: toLots(p.nonce),
          additionalData: {
            domain: a.domain,
            types: a.types,
            witness: a.witness,
            ...(a.secretHash === undefined ? {} : { secretHash: a.secretHash }),
            witnessTypeString: a.witness_type_string,
            witnessHash: a.witness_hash as `0x${string}`,
          },
        },
      };
    }
    case "htlc": {
      const p = check(schemas().htlcSchema, i.params_to_sign, "htlc params_to_sign");
      return { ...base, approvalMechanism: "htlc", paramsToSign: { psbt: p.psbt, inputs: p.inputs } };
    }
    case "cosign": {
      const p = check(schemas().cosignSchema, i.params_to_sign, "cosign params_to_sign");
      return { ...base, approvalMechanism: "cosign", paramsToSign: { transaction: p.transaction } };
    }
    default:
      throw new BaseError("RESPONSE_INVALID", `Unknown approval_mechanism "${i.approval_mechanism}".`, {
        details: { issues: [{ path: "approval_mechanism", message: "expected permit2, htlc or cosign" }] },
      });
  }
}

function toMetadata(m: v.InferOutput<Schemas["metadataSchema"]>): SwapMetadata {
  return {
    id: m.id ?? "",
    proxyAddress: m.proxy_address ?? null,
    userDepositTx: m.user_deposit_tx ?? null,
    fulfillTx: m.fulfill_tx ?? null,
    swapTx: m.swap_tx ?? null,
    createdAt: toDate(m.created_at),
    userDepositedAt: toDate(m.user_deposited_at),
    kycRequestedAt: toDate(m.kyc_requested_at),
    fulfilledAt: toDate(m.fulfilled_at),
    swappedAt: toDate(m.swapped_at),
    refundedAt: toDate(m.refunded_at),
  };
}

function toSwapStatus(s: v.InferOutput<Schemas["statusSchema"]>): SwapStatus {
  return {
    intentId: s.intent_id,
    status: toIntentStatus(s.status),
    rawStatus: s.status,
    swapMetadata: toMetadata(s.swap_metadata),
    sourceAmountDecimals: s.source_amount_decimals,
    sourceAmountLots: toLots(s.source_amount_lots),
    sourceChain: s.source_chain,
    sourceToken: s.source_token,
    destAmountDecimals: s.dest_amount_decimals,
    destChain: s.dest_chain,
    destToken: s.dest_token,
    minDestAmountLots: toLots(s.min_dest_amount_lots),
    maxDestAmountLots: toLots(s.max_dest_amount_lots),
  };
}

/** Parses a swap status record (spec 2.3). */
export function parseSwapStatus(json: unknown): SwapStatus {
  return toSwapStatus(check(schemas().statusSchema, json, "swap status record"));
}

/** Parses a page of swap history (spec 4.7). */
export function parseHistoryPage(json: unknown): Page<SwapHistoryItem> {
  const page = check(schemas().historyPageSchema, json, "swap history page");
  return {
    items: page.items.map((item) => ({ ...toSwapStatus(item), kycLink: item.kyc_link ?? null })),
    limit: page.limit,
    offset: page.offset,
    total: page.total,
  };
}

/** Parses the networks catalogue (spec 4.5). */
export function parseNetworks(json: unknown): Network[] {
  return check(schemas().networksSchema, json, "network list").map((n) => ({
    id: n.id,
    name: n.name,
    type: n.type,
    supportsOptimizedSwap: n.supports_optimized_swap,
    iconUrl: n.icon_url,
    supportsCustomTokens: n.supports_custom_tokens,
  }));
}

/** Parses a page of tokens (spec 4.6). An empty `wrapped_token_address` becomes `null`. */
export function parseTokensPage(json: unknown): Page<Token> {
  const page = check(schemas().tokensPageSchema, json, "token page");
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
