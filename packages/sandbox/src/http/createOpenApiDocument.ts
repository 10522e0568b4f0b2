import { wireIntentStatuses } from "@swapintent/client";

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const str: Schema = { type: "string" };
const nullableStr: Schema = { type: ["string", "null"] };
const int: Schema = { type: "integer" };
const lots: Schema = { type: "string", pattern: "^[0-9]+$", description: "Integer amount in lots." };
const uuid: Schema = { type: "string", format: "uuid" };
const isoOrNull: Schema = { type: ["string", "null"], format: "date-time" };
const object = (properties: Record<string, Schema>, required = Object.keys(properties)): Schema => ({
  type: "object",
  properties,
  required,
});

const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((s) => [
      String(s),
      {
        description:
          {
            400: "Malformed request",
            401: "Missing or invalid credentials",
            404: "Unknown id",
            422: "Business rule",
            429: "Rate limited (see Retry-After)",
            503: "The database is unavailable (a PostgreSQL server restarting or unreachable, or this sandbox lost its resolver lock), type SERVICE_UNAVAILABLE. The write happened whole or not at all (its outcome may be unknown): read before retrying, after Retry-After",
          }[s] ?? "Error",
        content: { "application/json": { schema: ref("Error") } },
        ...(s === 429 || s === 503
          ? { headers: { "Retry-After": { schema: int, description: "Seconds to wait." } } }
          : {}),
      },
    ]),
  );

const ok = (schema: Schema) => ({ description: "OK", content: { "application/json": { schema } } });
const jsonBody = (schema: Schema) => ({ required: true, content: { "application/json": { schema } } });
const query = (name: string, schema: Schema, description: string, extra: Schema = {}) => ({
  name,
  in: "query",
  required: false,
  schema,
  description,
  ...extra,
});
const intentIdParam = { name: "intent_id", in: "path", required: true, schema: uuid };

const swapMetadata = object(
  {
    id: uuid,
    proxy_address: str,
    user_deposit_tx: nullableStr,
    fulfill_tx: nullableStr,
    swap_tx: nullableStr,
    created_at: { type: "string", format: "date-time" },
    user_deposited_at: isoOrNull,
    kyc_requested_at: isoOrNull,
    fulfilled_at: isoOrNull,
    swapped_at: isoOrNull,
    refunded_at: isoOrNull,
  },
  ["id"],
);

const statusRecordProperties = {
  intent_id: uuid,
  status: {
    type: "string",
    enum: [...wireIntentStatuses],
  },
  swap_metadata: ref("SwapMetadata"),
  source_amount_decimals: int,
  source_amount_lots: lots,
  source_chain: int,
  source_token: str,
  dest_amount_decimals: int,
  dest_chain: int,
  dest_token: str,
  min_dest_amount_lots: lots,
  max_dest_amount_lots: lots,
};

/** The `limit` and `offset` query parameters of a paginated list. */
const pageParams = [
  query("limit", { type: "integer", minimum: 1, maximum: 100, default: 20 }, "Page size."),
  query("offset", { type: "integer", minimum: 0, default: 0 }, "Items to skip."),
];

/** The paths to create quotes and intents (spec 2.1, 4.2). */
function quoteAndIntentPaths(): Schema {
  return {
    "/affiliate/v1/quotes/best": {
      post: {
        summary: "Get the best quote",
        requestBody: jsonBody(
          object(
            {
              source_chain: int,
              source_token: str,
              dest_chain: int,
              dest_token: str,
              amount: {
                type: "number",
                exclusiveMinimum: 0,
                description: "Human units; at most the source token's decimals.",
              },
              slippage_bps: { type: "string", pattern: "^[0-9]+$", description: "0..10000" },
              swap_type: { type: "string", enum: ["standard"] },
              retail_user_id: uuid,
            },
            [
              "source_chain",
              "source_token",
              "dest_chain",
              "dest_token",
              "amount",
              "slippage_bps",
              "swap_type",
            ],
          ),
        ),
        responses: { 200: ok(ref("Quote")), ...errorResponses(400, 401, 422, 429, 503) },
      },
    },
    "/affiliate/v1/intents": {
      post: {
        summary: "Create an intent from a quote",
        requestBody: jsonBody(
          object(
            {
              quote_id: uuid,
              refund_address: str,
              retail_user_id: uuid,
              user_destination_address: str,
              user_source_address: str,
              user_source_public_key: {
                type: "string",
                description: "Hex; required for Bitcoin and Solana sources.",
              },
            },
            ["quote_id", "refund_address", "user_destination_address", "user_source_address"],
          ),
        ),
        responses: { 200: ok(ref("IntentCreation")), ...errorResponses(400, 401, 404, 422, 429, 503) },
      },
    },
  };
}

/** The paths of one intent: its status and the user's approval (design §2). */
function intentPaths(): Schema {
  return {
    "/affiliate/v1/intents/{intent_id}/status": {
      get: {
        summary: "Intent status",
        parameters: [intentIdParam],
        responses: { 200: ok(ref("SwapStatus")), ...errorResponses(400, 401, 404, 429, 503) },
      },
    },
    "/affiliate/v1/intents/{intent_id}/approvals": {
      post: {
        summary: "Submit the user's approval",
        parameters: [intentIdParam],
        requestBody: jsonBody({
          type: "object",
          properties: {
            type: { type: "string", enum: ["permit2", "psbt", "htlc", "cosign"] },
            approval_type: {
              type: "string",
              enum: ["permit2", "psbt", "htlc", "cosign"],
              description: "Alias of `type`.",
            },
            signed_data: {
              description:
                "permit2: 0x 65-byte signature; psbt: base64 PSBT; cosign: {transaction, user_address}.",
              oneOf: [str, object({ transaction: str, user_address: str })],
            },
          },
          required: ["signed_data"],
        }),
        responses: { 200: ok(ref("SwapStatus")), ...errorResponses(400, 401, 404, 422, 429, 503) },
      },
    },
  };
}

/** The catalogue's paths: networks and tokens. */
function cataloguePaths(): Schema {
  return {
    "/affiliate/v1/networks": {
      get: {
        summary: "List networks",
        responses: { 200: ok({ type: "array", items: ref("Network") }), ...errorResponses(401, 429) },
      },
    },
    "/affiliate/v1/tokens": {
      get: {
        summary: "List tokens",
        parameters: [
          ...pageParams,
          query("q", str, "Case-insensitive search over symbol, name and contract address."),
          query("network_id", int, "Only this network."),
        ],
        responses: {
          200: ok(
            object({
              data: { type: "array", items: ref("Token") },
              pagination: object({ limit: int, offset: int, pages: int, total: int }),
            }),
          ),
          ...errorResponses(400, 401, 429),
        },
      },
    },
  };
}

/** The swap history's path. */
function historyPaths(): Schema {
  return {
    "/affiliate/v1/swaps/history": {
      get: {
        summary: "Swap history (give wallet or retail_id)",
        parameters: [
          ...pageParams,
          query("active", { type: "boolean" }, "true: only swaps not in a terminal state."),
          query(
            "wallet",
            { type: "array", items: str },
            "Source or destination address; repeat the parameter.",
            {
              style: "form",
              explode: true,
            },
          ),
          query("retail_id", str, "Retail user id given with the quote or intent."),
        ],
        responses: {
          200: ok(
            object({
              items: { type: "array", items: ref("SwapHistoryItem") },
              limit: int,
              offset: int,
              total: int,
            }),
          ),
          ...errorResponses(400, 401, 429, 503),
        },
      },
    },
  };
}

/** The component schemas the paths refer to (`#/components/schemas/...`). */
function componentSchemas(): Schema {
  return {
    Error: object(
      {
        code: { type: "integer", description: "The HTTP status." },
        message: str,
        entity: {
          type: "string",
          enum: ["Quote", "Intent", "Approval", "Swap", "Network", "Token", "Other"],
        },
        type: { type: "string", description: "Stable error code, e.g. QUOTE_EXPIRED." },
      },
      ["code", "message", "entity"],
    ),
    Quote: object({
      id: uuid,
      source_chain: int,
      source_token: str,
      dest_chain: int,
      dest_token: str,
      intermediate_token: nullableStr,
      intermediate_token_amount_min: nullableStr,
      intermediate_token_amount_max: nullableStr,
      intermediate_token_decimals: { type: ["integer", "null"] },
      source_amount_lots: lots,
      source_amount_decimals: int,
      min_dest_amount_lots: lots,
      max_dest_amount_lots: lots,
      dest_amount_decimals: int,
      slippage_bps: str,
      expiry: { type: "integer", description: "Unix milliseconds." },
      swap_type: str,
    }),
    IntentCreation: object({
      intent_id: uuid,
      deadline_secs: int,
      secret_hash: { type: "string", pattern: "^0x[0-9a-f]{64}$" },
      approval_mechanism: { type: "string", enum: ["permit2", "htlc", "cosign"] },
      params_to_sign: {
        oneOf: [
          object({
            escrow_contract_address: str,
            permit2_contract_address: str,
            resolver_deposit_address: str,
            nonce: int,
            additional_data: { type: "object" },
          }),
          object({ psbt: str, inputs: { type: "array", items: int } }),
          object({ transaction: str }),
        ],
      },
    }),
    SwapMetadata: swapMetadata,
    SwapStatus: object(statusRecordProperties),
    SwapHistoryItem: object({ ...statusRecordProperties, kyc_link: nullableStr }),
    Network: object({
      id: int,
      name: str,
      type: { type: "string", description: "EVM, TRON, BITCOIN or SOLANA." },
      supports_optimized_swap: { type: "boolean" },
      icon_url: { type: "string", format: "uri" },
      supports_custom_tokens: { type: "boolean" },
    }),
    Token: object({
      network_id: int,
      name: str,
      contract_address: str,
      symbol: str,
      icon_url: { type: "string", format: "uri" },
      wrapped_token_address: nullableStr,
    }),
  };
}

/**
 * The OpenAPI 3.1 document of the public interface (`/affiliate/v1`), served at `/affiliate/v1/openapi.json`.
 * Written from the spec and design §2; a test checks that it lists exactly the app's public routes.
 */
export function createOpenApiDocument(): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: {
      title: "Swap intent service (sandbox)",
      version: "1.0.0",
      description:
        "Quotes, intents, approvals, status, networks, tokens and swap history. Errors are `{code, message, entity, type}`: `code` is the HTTP status, `type` a stable string code.",
    },
    servers: [{ url: "/" }],
    security: [{ apiKey: [] }],
    paths: {
      "/affiliate/v1/openapi.json": {
        get: { summary: "This document", security: [], responses: { 200: ok({ type: "object" }) } },
      },
      ...quoteAndIntentPaths(),
      ...intentPaths(),
      ...cataloguePaths(),
      ...historyPaths(),
    },
    components: {
      securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "X-Api-Key" } },
      schemas: componentSchemas(),
    },
  };
}
