/**
 * Every route the app serves, as data: method, path, the schemas of its request and answer, and the error statuses
 * it may answer. The route handlers read their requests with these same schemas; `createOpenApiDocument` builds the
 * document from this list; a test checks that the list and the app's routes are the same.
 */
import type { z } from "zod";
import {
  BalanceSchema,
  ChainsSchema,
  ClockSchema,
  FaucetSchema,
  FaultsSchema,
  IntentInspectionSchema,
  SandboxStatusSchema,
  SmartAccountSchema,
} from "./devResponseSchemas.js";
import { ApprovalRequestSchema } from "./paramsToSignSchemas.js";
import { BalanceQuerySchema, HistoryQuerySchema, TokensQuerySchema } from "./querySchemas.js";
import {
  ClockRequestSchema,
  FaucetRequestSchema,
  FaultsRequestSchema,
  IntentRequestSchema,
  QuoteRequestSchema,
  SmartAccountRequestSchema,
} from "./requestSchemas.js";
import {
  IntentCreationSchema,
  NetworksSchema,
  OpenApiDocumentSchema,
  QuoteSchema,
  SwapHistorySchema,
  SwapStatusSchema,
  TokensSchema,
} from "./responseSchemas.js";

/** An error status a route may answer with (each with the `Error` body; 429 and 503 with `Retry-After`). */
export type WireErrorStatus = 400 | 401 | 404 | 422 | 429 | 503;

/** One route of the app. */
export interface WireOperation {
  method: "get" | "post";
  /** The OpenAPI path (`{intent_id}`, not `:intent_id`). */
  path: string;
  tag: "quotes" | "intents" | "catalogue" | "history" | "document" | "sandbox";
  summary: string;
  description?: string;
  /** Whether the caller must authenticate (the `/affiliate/v1` API, except this document). */
  authenticated: boolean;
  body?: z.ZodType;
  query?: z.ZodObject;
  /** The path's `{intent_id}`: a UUID. */
  intentIdParameter?: boolean;
  response: z.ZodType;
  errors: readonly WireErrorStatus[];
}

/** The public API's prefix. */
export const API_PREFIX = "/affiliate/v1";

/** The routes of the `/affiliate/v1` API (spec sections 2 and 4, design §2). */
export const API_OPERATIONS: readonly WireOperation[] = [
  {
    method: "get",
    path: `${API_PREFIX}/openapi.json`,
    tag: "document",
    summary: "This document",
    authenticated: false,
    response: OpenApiDocumentSchema,
    errors: [400],
  },
  {
    method: "post",
    path: `${API_PREFIX}/quotes/best`,
    tag: "quotes",
    summary: "Price a swap and keep the quote for the caller",
    authenticated: true,
    body: QuoteRequestSchema,
    response: QuoteSchema,
    errors: [400, 401, 422, 429, 503],
  },
  {
    method: "post",
    path: `${API_PREFIX}/intents`,
    tag: "intents",
    summary: "Create an intent from a quote: what the user signs (`params_to_sign`)",
    authenticated: true,
    body: IntentRequestSchema,
    response: IntentCreationSchema,
    errors: [400, 401, 404, 422, 429, 503],
  },
  {
    method: "get",
    path: `${API_PREFIX}/intents/{intent_id}/status`,
    tag: "intents",
    summary: "An intent's status",
    authenticated: true,
    intentIdParameter: true,
    response: SwapStatusSchema,
    errors: [400, 401, 404, 429, 503],
  },
  {
    method: "post",
    path: `${API_PREFIX}/intents/{intent_id}/approvals`,
    tag: "intents",
    summary: "Submit the user's signed approval",
    description:
      "The source engine checks the approval before it is accepted (a 422 names the reason; nothing changes). 503 `ENGINES_UNAVAILABLE`: the intent's funds are on engines this sandbox does not run (another data dir).",
    authenticated: true,
    intentIdParameter: true,
    body: ApprovalRequestSchema,
    response: SwapStatusSchema,
    errors: [400, 401, 404, 422, 429, 503],
  },
  {
    method: "get",
    path: `${API_PREFIX}/networks`,
    tag: "catalogue",
    summary: "The networks",
    authenticated: true,
    response: NetworksSchema,
    errors: [400, 401, 429],
  },
  {
    method: "get",
    path: `${API_PREFIX}/tokens`,
    tag: "catalogue",
    summary: "A page of tokens",
    authenticated: true,
    query: TokensQuerySchema,
    response: TokensSchema,
    errors: [400, 401, 429],
  },
  {
    method: "get",
    path: `${API_PREFIX}/swaps/history`,
    tag: "history",
    summary: "The caller's swaps of some wallets or of a retail user (give `wallet` or `retail_id`)",
    authenticated: true,
    query: HistoryQuerySchema,
    response: SwapHistorySchema,
    errors: [400, 401, 429, 503],
  },
];

/** The `/sandbox/*` dev endpoints (only with dev routes on; no credentials). */
export const DEV_OPERATIONS: readonly WireOperation[] = [
  {
    method: "get",
    path: "/sandbox/chains",
    tag: "sandbox",
    summary: "Each network's engine facts: escrow, Permit2 and resolver addresses and keys, tokens",
    authenticated: false,
    response: ChainsSchema,
    errors: [400],
  },
  {
    method: "get",
    path: "/sandbox/status",
    tag: "sandbox",
    summary: "What this sandbox resolves: its engines, the resolver lock, intents paused on other engines",
    authenticated: false,
    response: SandboxStatusSchema,
    errors: [400, 503],
  },
  {
    method: "get",
    path: "/sandbox/clock",
    tag: "sandbox",
    summary: "The sandbox clock",
    authenticated: false,
    response: ClockSchema,
    errors: [400],
  },
  {
    method: "get",
    path: "/sandbox/faults",
    tag: "sandbox",
    summary: "The resolver's faults",
    authenticated: false,
    response: FaultsSchema,
    errors: [400],
  },
  {
    method: "get",
    path: "/sandbox/intents/{intent_id}",
    tag: "sandbox",
    summary: "Why an intent is where it is (the resolver's bookkeeping, never the secret)",
    authenticated: false,
    intentIdParameter: true,
    response: IntentInspectionSchema,
    errors: [400, 404, 503],
  },
  {
    method: "post",
    path: "/sandbox/faucet",
    tag: "sandbox",
    summary: "Mint or send test tokens to an address",
    authenticated: false,
    body: FaucetRequestSchema,
    response: FaucetSchema,
    errors: [400, 422],
  },
  {
    method: "get",
    path: "/sandbox/balance",
    tag: "sandbox",
    summary: "An address's balance of a token",
    authenticated: false,
    query: BalanceQuerySchema,
    response: BalanceSchema,
    errors: [400, 422],
  },
  {
    method: "post",
    path: "/sandbox/clock",
    tag: "sandbox",
    summary: "Move the sandbox clock forward (engines follow)",
    authenticated: false,
    body: ClockRequestSchema,
    response: ClockSchema,
    errors: [400],
  },
  {
    method: "post",
    path: "/sandbox/faults",
    tag: "sandbox",
    summary: "Switch resolver faults on or off",
    authenticated: false,
    body: FaultsRequestSchema,
    response: FaultsSchema,
    errors: [400],
  },
  {
    method: "post",
    path: "/sandbox/smart-accounts",
    tag: "sandbox",
    summary:
      "The sandbox smart account (ERC-1271) of an owner on a permit2 network, deployed or counterfactual (ERC-6492)",
    authenticated: false,
    body: SmartAccountRequestSchema,
    response: SmartAccountSchema,
    errors: [400, 422],
  },
];
