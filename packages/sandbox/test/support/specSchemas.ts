/**
 * The wire shapes of /work/shared/spec/swap-intent-service.md (sections 2 and 4) and design §2, written from the
 * spec's tables (not from the sandbox's code). Objects are strict: an extra or missing field fails.
 */
import { z } from "zod";

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
const lots = z.string().regex(/^\d+$/);
const int = z.number().int();
const iso = z
  .string()
  .refine((s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(s) && !Number.isNaN(Date.parse(s)));
const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/);

/** 2.1 Quote. */
export const QuoteSchema = z.strictObject({
  id: uuid,
  source_chain: int,
  source_token: z.string(),
  dest_chain: int,
  dest_token: z.string(),
  intermediate_token: z.string().nullable(),
  intermediate_token_amount_min: z.string().nullable(),
  intermediate_token_amount_max: z.string().nullable(),
  intermediate_token_decimals: int.nullable(),
  source_amount_lots: lots,
  source_amount_decimals: int,
  min_dest_amount_lots: lots,
  max_dest_amount_lots: lots,
  dest_amount_decimals: int,
  slippage_bps: z.string(),
  expiry: int.min(1e12),
  swap_type: z.literal("standard"),
});

/** 4.3 params_to_sign per mechanism. */
export const Permit2ParamsSchema = z.strictObject({
  escrow_contract_address: z.string(),
  permit2_contract_address: z.string(),
  resolver_deposit_address: z.string(),
  nonce: int,
  additional_data: z.object({
    domain: z.record(z.string(), z.unknown()),
    types: z.record(z.string(), z.unknown()),
    witness: z.record(z.string(), z.unknown()),
    secretHash: z.string().optional(),
    witness_type_string: z.string(),
    witness_hash: hex32,
  }),
});
export const HtlcParamsSchema = z.strictObject({ psbt: z.string().min(1), inputs: z.array(int) });
export const CosignParamsSchema = z.strictObject({ transaction: z.string().regex(/^[0-9a-fA-F]+$/) });

/** 2.2 Intent creation result. */
export const IntentCreationSchema = z.discriminatedUnion("approval_mechanism", [
  z.strictObject({
    intent_id: uuid,
    deadline_secs: int,
    secret_hash: hex32,
    approval_mechanism: z.literal("permit2"),
    params_to_sign: Permit2ParamsSchema,
  }),
  z.strictObject({
    intent_id: uuid,
    deadline_secs: int,
    secret_hash: hex32,
    approval_mechanism: z.literal("htlc"),
    params_to_sign: HtlcParamsSchema,
  }),
  z.strictObject({
    intent_id: uuid,
    deadline_secs: int,
    secret_hash: hex32,
    approval_mechanism: z.literal("cosign"),
    params_to_sign: CosignParamsSchema,
  }),
]);

/** Section 3 states, spelled as the spec spells them. */
export const StatusSchema = z.enum([
  "Initiated",
  "ApprovalAdded",
  "Accepted",
  "Declined",
  "UserDeposited",
  "Fulfilled",
  "Expired",
  "RefundRquested",
  "Refunded",
]);

/** 2.4 swap_metadata. */
export const SwapMetadataSchema = z.strictObject({
  id: uuid,
  proxy_address: z.string(),
  user_deposit_tx: z.string().nullable(),
  fulfill_tx: z.string().nullable(),
  swap_tx: z.string().nullable(),
  created_at: iso,
  user_deposited_at: iso.nullable(),
  kyc_requested_at: iso.nullable(),
  fulfilled_at: iso.nullable(),
  swapped_at: iso.nullable(),
  refunded_at: iso.nullable(),
});

const statusFields = {
  intent_id: uuid,
  status: StatusSchema,
  swap_metadata: SwapMetadataSchema,
  source_amount_decimals: int,
  source_amount_lots: lots,
  source_chain: int,
  source_token: z.string(),
  dest_amount_decimals: int,
  dest_chain: int,
  dest_token: z.string(),
  min_dest_amount_lots: lots,
  max_dest_amount_lots: lots,
};

/** 2.3 Swap status record. */
export const SwapStatusSchema = z.strictObject(statusFields);
/** 2.5 Swap history item (the sandbox sends the full metadata). */
export const SwapHistoryItemSchema = z.strictObject({ ...statusFields, kyc_link: z.string().nullable() });
/** 4.7 response. */
export const HistoryResponseSchema = z.strictObject({
  items: z.array(SwapHistoryItemSchema),
  limit: int,
  offset: int,
  total: int,
});

/** 2.6 Network. */
export const NetworkSchema = z.strictObject({
  id: int,
  name: z.string(),
  type: z.string(),
  supports_optimized_swap: z.boolean(),
  icon_url: z.url(),
  supports_custom_tokens: z.boolean(),
});
/** 2.7 Token. */
export const TokenSchema = z.strictObject({
  network_id: int,
  name: z.string(),
  contract_address: z.string(),
  symbol: z.string(),
  icon_url: z.url(),
  wrapped_token_address: z.string().nullable(),
});
/** 4.6 response. */
export const TokensResponseSchema = z.strictObject({
  data: z.array(TokenSchema),
  pagination: z.strictObject({ limit: int, offset: int, pages: int, total: int }),
});

/** Design §2 error body (`type` carries the stable code). */
export const ErrorSchema = z.strictObject({
  code: int,
  message: z.string().min(1),
  entity: z.enum(["Quote", "Intent", "Approval", "Swap", "Network", "Token", "Other"]),
  type: z.string().optional(),
});
