/**
 * Wire schemas (zod/mini) and their mapping to domain types. Every response passes through here:
 * a body that fails its schema becomes `RESPONSE_INVALID` (the transport adds the raw body).
 */
import * as z from "zod/mini";
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
  const int = z.int();
  const nonNegativeInt = z.int().check(z.nonnegative());
  /** Lots: a decimal integer string (tolerated: a non-negative safe integer number). Decimals are rejected. */
  const lots = z.union([
    z.string().check(z.regex(/^[0-9]+$/, "expected an integer decimal string")),
    nonNegativeInt,
  ]);
  const isoDate = z
    .string()
    .check(z.refine((value) => !Number.isNaN(Date.parse(value)), "expected an ISO 8601 date"));
  const nullableString = z.nullish(z.string());
  const hex32 = z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/, "expected 0x-prefixed 32-byte hex"));

  const quoteSchema = z.object({
    id: z.string(),
    source_chain: int,
    source_token: z.string(),
    dest_chain: int,
    dest_token: z.string(),
    intermediate_token: nullableString,
    intermediate_token_amount_min: z.nullish(lots),
    intermediate_token_amount_max: z.nullish(lots),
    intermediate_token_decimals: z.nullish(nonNegativeInt),
    source_amount_lots: lots,
    source_amount_decimals: nonNegativeInt,
    min_dest_amount_lots: lots,
    max_dest_amount_lots: lots,
    dest_amount_decimals: nonNegativeInt,
    slippage_bps: z.union([
      z.string().check(z.regex(/^[0-9]+$/, "expected an integer string")),
      nonNegativeInt,
    ]),
    expiry: nonNegativeInt,
    swap_type: z.string(),
  });

  const typedDataField = z.object({ name: z.string(), type: z.string() });
  const permit2Schema = z.object({
    escrow_contract_address: z.string(),
    permit2_contract_address: z.string(),
    resolver_deposit_address: z.string(),
    nonce: lots,
    additional_data: z.object({
      domain: z.record(z.string(), z.unknown()),
      types: z.record(z.string(), z.array(typedDataField)),
      witness: z.record(z.string(), z.unknown()),
      secretHash: z.optional(z.string()),
      witness_type_string: z.string(),
      witness_hash: hex32,
    }),
  });
  const htlcSchema = z.object({ psbt: z.string(), inputs: z.array(nonNegativeInt) });
  const cosignSchema = z.object({ transaction: z.string() });
  const intentSchema = z.object({
    intent_id: z.string(),
    deadline_secs: nonNegativeInt,
    secret_hash: hex32,
    approval_mechanism: z.string(),
    params_to_sign: z.unknown(),
  });

  const metadataSchema = z.object({
    id: z.optional(z.string()),
    proxy_address: nullableString,
    user_deposit_tx: nullableString,
    fulfill_tx: nullableString,
    swap_tx: nullableString,
    created_at: z.nullish(isoDate),
    user_deposited_at: z.nullish(isoDate),
    kyc_requested_at: z.nullish(isoDate),
    fulfilled_at: z.nullish(isoDate),
    swapped_at: z.nullish(isoDate),
    refunded_at: z.nullish(isoDate),
  });
  const statusShape = {
    intent_id: z.string(),
    status: z.string(),
    swap_metadata: metadataSchema,
    source_amount_decimals: nonNegativeInt,
    source_amount_lots: lots,
    source_chain: int,
    source_token: z.string(),
    dest_amount_decimals: nonNegativeInt,
    dest_chain: int,
    dest_token: z.string(),
    min_dest_amount_lots: lots,
    max_dest_amount_lots: lots,
  };
  const statusSchema = z.object(statusShape);
  const historyItemSchema = z.object({ ...statusShape, kyc_link: nullableString });
  const historyPageSchema = z.object({
    items: z.array(historyItemSchema),
    limit: nonNegativeInt,
    offset: nonNegativeInt,
    total: nonNegativeInt,
  });

  const networkSchema = z.object({
    id: int,
    name: z.string(),
    type: z.string(),
    supports_optimized_swap: z.boolean(),
    icon_url: z.string(),
    supports_custom_tokens: z.boolean(),
  });
  const networksSchema = z.array(networkSchema);
  const tokenSchema = z.object({
    network_id: int,
    name: z.string(),
    contract_address: z.string(),
    symbol: z.string(),
    icon_url: z.string(),
    wrapped_token_address: nullableString,
  });
  const tokensPageSchema = z.object({
    data: z.array(tokenSchema),
    pagination: z.object({
      limit: nonNegativeInt,
      offset: nonNegativeInt,
      pages: z.optional(nonNegativeInt),
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

function check<S extends z.ZodMiniType>(schema: S, json: unknown, what: string): z.output<S> {
  const result = z.safeParse(schema, json);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, 10).map((issue) => ({
    path: issue.path.map(String).join("."),
    message: describeIssue(issue),
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

/** zod/mini ships no message locale (it says "Invalid input"); say what was expected instead. */
function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.message !== "Invalid input") return issue.message;
  switch (issue.code) {
    case "invalid_type":
      return `expected ${issue.expected}`;
    case "invalid_union":
      return `expected ${issue.errors.map((branch) => (branch[0]?.code === "invalid_type" ? branch[0].expected : "another form")).join(" or ")}`;
    case "too_small":
      return `expected at least ${issue.minimum}`;
    case "too_big":
      return `expected at most ${issue.maximum}`;
    default:
      return issue.code;
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

function toMetadata(m: z.output<Schemas["metadataSchema"]>): SwapMetadata {
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

function toSwapStatus(s: z.output<Schemas["statusSchema"]>): SwapStatus {
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
