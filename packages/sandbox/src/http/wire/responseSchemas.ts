/**
 * The answers of the `/affiliate/v1` API (spec sections 2 and 4, design §2): one schema each, which the OpenAPI
 * document shows and the tests check the sandbox's real answers against. Objects are strict: a field the document
 * does not name fails the check.
 */
import { wireIntentStatuses } from "@swapintent/client";
import { z } from "zod";
import { CosignParamsSchema, HtlcParamsSchema, Permit2ParamsSchema } from "./paramsToSignSchemas.js";

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
const lots = z
  .string()
  .regex(/^(0|[1-9][0-9]*)$/)
  .meta({ description: "An integer amount in lots (decimal text)." });
const isoTime = z.iso.datetime();
const int = z.int();
const bytes32 = z.string().regex(/^0x[0-9a-f]{64}$/);

/** The body of every error answer. */
export const ErrorSchema = z
  .strictObject({
    code: int.meta({ description: "The HTTP status." }),
    message: z.string(),
    entity: z.enum(["Quote", "Intent", "Approval", "Swap", "Network", "Token", "Other"]),
    type: z.string().meta({ description: "Stable error code, e.g. QUOTE_EXPIRED, SERVICE_UNAVAILABLE." }),
  })
  .meta({ id: "Error" });

/** A quote (spec 2.1). */
export const QuoteSchema = z
  .strictObject({
    id: uuid,
    source_chain: int,
    source_token: z.string(),
    dest_chain: int,
    dest_token: z.string(),
    intermediate_token: z.string().nullable(),
    intermediate_token_amount_min: lots.nullable(),
    intermediate_token_amount_max: lots.nullable(),
    intermediate_token_decimals: int.nullable(),
    source_amount_lots: lots,
    source_amount_decimals: int,
    min_dest_amount_lots: lots.meta({ description: "The least delivered (the slippage applied)." }),
    max_dest_amount_lots: lots.meta({ description: "The quoted output." }),
    dest_amount_decimals: int,
    slippage_bps: z.string().regex(/^[0-9]{1,5}$/),
    expiry: int.meta({ description: "Unix milliseconds." }),
    swap_type: z.literal("standard"),
  })
  .meta({ id: "Quote" });

const intentFields = {
  intent_id: uuid,
  deadline_secs: int.meta({ description: "Unix seconds; the approval must arrive before it." }),
  secret_hash: bytes32.meta({ description: "SHA-256 of the intent's secret, which only the service holds." }),
};

/** A new intent and what its user signs (spec 2.2, 4.2), by approval mechanism. */
export const IntentCreationSchema = z
  .discriminatedUnion("approval_mechanism", [
    z.strictObject({
      ...intentFields,
      approval_mechanism: z.literal("permit2"),
      params_to_sign: Permit2ParamsSchema,
    }),
    z.strictObject({
      ...intentFields,
      approval_mechanism: z.literal("htlc"),
      params_to_sign: HtlcParamsSchema,
    }),
    z.strictObject({
      ...intentFields,
      approval_mechanism: z.literal("cosign"),
      params_to_sign: CosignParamsSchema,
    }),
  ])
  .meta({ id: "IntentCreation" });

/** The swap's transactions and times (spec 2.4). */
export const SwapMetadataSchema = z
  .strictObject({
    id: uuid,
    proxy_address: z
      .string()
      .meta({ description: "Where the user's funds go: escrow, HTLC address or escrow token account." }),
    user_deposit_tx: z.string().nullable(),
    fulfill_tx: z.string().nullable(),
    swap_tx: z.string().nullable(),
    created_at: isoTime,
    user_deposited_at: isoTime.nullable(),
    kyc_requested_at: isoTime.nullable(),
    fulfilled_at: isoTime.nullable(),
    swapped_at: isoTime.nullable(),
    refunded_at: isoTime.nullable(),
  })
  .meta({ id: "SwapMetadata" });

const statusFields = {
  intent_id: uuid,
  status: z.enum(wireIntentStatuses),
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

/** An intent's status record (spec 2.3). */
export const SwapStatusSchema = z.strictObject(statusFields).meta({ id: "SwapStatus" });

/** A page of the swap history. */
export const SwapHistorySchema = z
  .strictObject({
    items: z.array(
      z.strictObject({ ...statusFields, kyc_link: z.string().nullable() }).meta({ id: "SwapHistoryItem" }),
    ),
    limit: int,
    offset: int,
    total: int,
  })
  .meta({ id: "SwapHistory" });

/** The catalogue's networks. */
export const NetworksSchema = z
  .array(
    z
      .strictObject({
        id: int.meta({ description: "The service's network id (not a chain id)." }),
        name: z.string(),
        type: z.enum(["EVM", "TRON", "BITCOIN", "SOLANA"]),
        supports_optimized_swap: z.boolean(),
        icon_url: z.url(),
        supports_custom_tokens: z.boolean(),
      })
      .meta({ id: "Network" }),
  )
  .meta({ id: "Networks" });

/** A page of the catalogue's tokens. */
export const TokensSchema = z
  .strictObject({
    data: z.array(
      z
        .strictObject({
          network_id: int,
          name: z.string(),
          contract_address: z
            .string()
            .meta({ description: "The token's id on the wire (contract, mint, `btc`)." }),
          symbol: z.string(),
          icon_url: z.url(),
          wrapped_token_address: z.string().nullable(),
        })
        .meta({ id: "Token" }),
    ),
    pagination: z.strictObject({ limit: int, offset: int, pages: int, total: int }),
  })
  .meta({ id: "Tokens" });

/** This document. */
export const OpenApiDocumentSchema = z
  .looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) })
  .meta({ id: "OpenApiDocument" });
