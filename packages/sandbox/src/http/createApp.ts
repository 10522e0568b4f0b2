import type { IncomingMessage } from "node:http";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { isDatabaseError } from "../db/databaseError.js";
import type { SubmittedApproval } from "../legs/types.js";
import { formatLots } from "../quotes/formatLots.js";
import { parseDecimalAmount } from "../quotes/parseDecimalAmount.js";
import { addApproval } from "../service/addApproval.js";
import { callLeg } from "../service/callLeg.js";
import type { CatalogueToken, Core } from "../service/core.js";
import { createIntent } from "../service/createIntent.js";
import { createQuote } from "../service/createQuote.js";
import { toStatusRecord } from "../service/toStatusRecord.js";
import type { ChainInfo, Faults } from "../types.js";
import { ApiError, createApiError, createIntentNotFoundError } from "./apiError.js";
import type { Authenticator } from "./createAuthenticator.js";
import { createOpenApiDocument } from "./createOpenApiDocument.js";
import { isStorableText } from "./isStorableText.js";
import { isUuid } from "./isUuid.js";
import { parsePagination } from "./parsePagination.js";
import { readFields } from "./readFields.js";
import { readJsonBody } from "./readJsonBody.js";

/** Largest request body accepted, bytes; a larger one is 400 `BODY_TOO_LARGE` and the connection is closed. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The public API's prefix. */
export const API_PREFIX = "/affiliate/v1";

/** How far `POST /sandbox/clock` may move the sandbox clock ahead, in all: 100 years. */
export const MAX_CLOCK_OFFSET_MS = 100 * 365 * 24 * 3600 * 1000;

/** What the dev endpoints act on. */
export interface DevControls {
  chains(): ChainInfo[];
  advanceClock(secs: number): Promise<void>;
  clockOffsetMs(): number;
  faults(): Faults;
  setFaults(faults: Partial<Faults>): Faults;
}

// A Map, not an object literal: a client-chosen `type` such as `toString` or `__proto__` must find nothing.
const APPROVAL_TYPES: ReadonlyMap<string, SubmittedApproval["type"]> = new Map([
  ["permit2", "permit2"],
  ["psbt", "psbt"],
  ["htlc", "psbt"],
  ["cosign", "cosign"],
]);

/** What the `/affiliate/v1` routes know about the request once authenticated. */
type ApiEnv = { Variables: { partnerId: string } };

/** The peer's IP address; `in-process` for requests that did not come through a socket (`app.request`). */
function clientAddress(c: Context): string {
  const env = c.env as { incoming?: IncomingMessage } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? "in-process";
}

/** Whether the request announces a body (a non-zero Content-Length, or chunked). */
function carriesBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  return (length !== null && length !== "0") || request.headers.has("transfer-encoding");
}

/** How long an error answer waits for the rest of an unread body before closing the socket instead. */
const BODY_DRAIN_WAIT_MS = 1_000;

/**
 * Read and drop what is left of a request's body; false when the client went away or the body did not arrive
 * within {@link BODY_DRAIN_WAIT_MS} (a client waiting for the answer before it sends the body is not held up).
 */
async function readRestOfBody(request: Request): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      request.arrayBuffer().then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), BODY_DRAIN_WAIT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the client went away before its request was answered (a disconnect mid-upload, say). */
function clientAborted(c: Context): boolean {
  const env = c.env as { incoming?: IncomingMessage } | undefined;
  return c.req.raw.signal.aborted || env?.incoming?.destroyed === true;
}

/**
 * Build the HTTP app: every endpoint of the spec under `/affiliate/v1`, the approvals endpoint of design §2,
 * the OpenAPI document, and (only when `dev`) the `/sandbox/*` endpoints.
 */
export function createApp({
  core,
  authenticate,
  dev,
}: {
  core: Core;
  authenticate: Authenticator;
  dev: DevControls | undefined;
}): Hono {
  const app = new Hono();

  app.onError((error, c) => {
    if (error instanceof ApiError) {
      if (error.retryAfterSecs !== undefined) c.header("Retry-After", String(error.retryAfterSecs));
      return c.json(
        { code: error.status, message: error.shortMessage, entity: error.entity, type: error.code },
        error.status as ContentfulStatusCode,
      );
    }
    if (isDatabaseError(error, "SANDBOX_DATABASE_UNAVAILABLE")) {
      // The database is away (restarting, dropped): nothing was half-written (each write is one statement or one
      // transaction); the client may retry.
      c.header("Retry-After", "1");
      return c.json(
        {
          code: 503,
          message: "The database is unavailable; retry shortly.",
          entity: "Other",
          type: "SERVICE_UNAVAILABLE",
        },
        503,
      );
    }
    if (clientAborted(c)) {
      // Nobody is left to answer: not an internal error, just a note.
      core.log(`client went away during ${c.req.method} ${c.req.path}`);
      return c.json(
        { code: 400, message: "The client went away.", entity: "Other", type: "CLIENT_ABORTED" },
        400,
      );
    }
    core.log(
      `internal error on ${c.req.method} ${c.req.path}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return c.json({ code: 500, message: "Internal error.", entity: "Other", type: "INTERNAL" }, 500);
  });
  app.notFound((c) =>
    c.json(
      {
        code: 404,
        message: `No route ${c.req.method} ${c.req.path}.`,
        entity: "Other",
        type: "ROUTE_NOT_FOUND",
      },
      404,
    ),
  );
  // An answer given before the request's body was read (401, 404, a bad id, 429...) would leave the rest of the
  // body on the socket, which the server then closes (bodies of a few hundred KiB and more): read it first, so a
  // keep-alive client's next request finds the socket alive. A body that cannot be read (chunked, announced over
  // the limit, or the client went away) gets `Connection: close` instead, as after BODY_TOO_LARGE.
  app.use("*", async (c, next) => {
    await next();
    if (!carriesBody(c.req.raw) || c.req.raw.bodyUsed) return;
    const length = Number(c.req.header("content-length"));
    if (Number.isSafeInteger(length) && length <= MAX_BODY_BYTES && (await readRestOfBody(c.req.raw))) return;
    c.res.headers.set("Connection", "close");
  });
  // Browser wallets under development call the sandbox from their own origin.
  app.use(
    "*",
    cors({
      origin: "*",
      allowHeaders: ["content-type", "x-api-key", "x-api-signature", "x-api-timestamp", "x-api-nonce"],
      exposeHeaders: ["Retry-After"],
    }),
  );
  app.use(
    "*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      // The rest of the body is never read, so the socket cannot carry another request: say so, and the server
      // closes it after this answer (a keep-alive client then opens a new one instead of failing on a dead one).
      onError: (c) => {
        c.header("Connection", "close");
        return c.json(
          { code: 400, message: "The body is larger than 1 MiB.", entity: "Other", type: "BODY_TOO_LARGE" },
          400,
        );
      },
    }),
  );

  // Query strings reach SQL (history filters): text the database cannot store is a 400, on every route.
  app.use("*", async (c, next) => {
    for (const [key, values] of Object.entries(c.req.queries()))
      if (!isStorableText(key) || !values.every(isStorableText))
        throw createApiError({
          status: 400,
          code: "INVALID_TEXT",
          message: "A query parameter holds a NUL character or an unpaired UTF-16 surrogate.",
          entity: "Other",
        });
    await next();
  });

  const openApi = createOpenApiDocument();
  app.get(`${API_PREFIX}/openapi.json`, (c) => c.json(openApi));

  const api = new Hono<ApiEnv>();
  api.use("*", async (c, next) => {
    const caller = await authenticate(c, clientAddress(c));
    c.set("partnerId", caller.partnerId);
    await next();
  });

  api.post("/quotes/best", async (c) => {
    const f = readFields({ body: await readJsonBody(c, "Quote"), entity: "Quote" });
    const quote = await createQuote({
      core,
      request: {
        sourceChain: f.integer("source_chain"),
        sourceToken: f.string("source_token"),
        destChain: f.integer("dest_chain"),
        destToken: f.string("dest_token"),
        amountText: f.numberText("amount"),
        slippageBps: f.string("slippage_bps"),
        swapType: f.string("swap_type"),
        retailUserId: f.optionalUuid("retail_user_id"),
        partnerId: c.get("partnerId"),
      },
    });
    return c.json(quote);
  });

  api.post("/intents", async (c) => {
    const f = readFields({ body: await readJsonBody(c, "Intent"), entity: "Intent" });
    const intent = await createIntent({
      core,
      request: {
        quoteId: f.uuid("quote_id"),
        refundAddress: f.string("refund_address"),
        retailUserId: f.optionalUuid("retail_user_id"),
        userDestinationAddress: f.string("user_destination_address"),
        userSourceAddress: f.string("user_source_address"),
        userSourcePublicKey: f.optionalString("user_source_public_key"),
        partnerId: c.get("partnerId"),
      },
    });
    return c.json(intent);
  });

  const intentIdParam = (value: string) => {
    if (!isUuid(value))
      throw createApiError({
        status: 400,
        code: "INVALID_ID",
        message: "The intent id must be a UUID.",
        entity: "Intent",
      });
    return value.toLowerCase();
  };

  api.get("/intents/:intent_id/status", async (c) => {
    const row = await core.store.getStatus(intentIdParam(c.req.param("intent_id")), c.get("partnerId"));
    if (!row) throw createIntentNotFoundError();
    return c.json(toStatusRecord(row));
  });

  api.post("/intents/:intent_id/approvals", async (c) => {
    const intentId = intentIdParam(c.req.param("intent_id"));
    const f = readFields({ body: await readJsonBody(c, "Approval"), entity: "Approval" });
    const typeName = f.optionalString("type") ?? f.optionalString("approval_type");
    if (typeName === undefined)
      throw createApiError({
        status: 400,
        code: "MISSING_FIELD",
        message: "The field `type` is required.",
        entity: "Approval",
      });
    const type = APPROVAL_TYPES.get(typeName);
    if (!type)
      throw createApiError({
        status: 400,
        code: "INVALID_APPROVAL_TYPE",
        message: "`type` must be one of permit2, psbt (htlc), cosign.",
        entity: "Approval",
      });
    const signedData = f.json("signed_data");
    if (signedData === undefined)
      throw createApiError({
        status: 400,
        code: "MISSING_FIELD",
        message: "The field `signed_data` is required.",
        entity: "Approval",
      });
    return c.json(
      await addApproval({ core, request: { intentId, type, signedData, partnerId: c.get("partnerId") } }),
    );
  });

  api.get("/networks", (c) =>
    c.json(
      core.networks.map((n) => ({
        id: n.id,
        name: n.name,
        type: n.type,
        supports_optimized_swap: n.supportsOptimizedSwap,
        icon_url: n.iconUrl,
        supports_custom_tokens: n.supportsCustomTokens,
      })),
    ),
  );

  api.get("/tokens", (c) => {
    const { limit, offset } = parsePagination({
      limit: c.req.query("limit"),
      offset: c.req.query("offset"),
      entity: "Token",
    });
    const networkParam = c.req.query("network_id");
    let tokens: readonly CatalogueToken[] = core.tokens;
    if (networkParam !== undefined) {
      if (!/^\d{1,9}$/.test(networkParam))
        throw createApiError({
          status: 400,
          code: "INVALID_FIELD",
          message: "`network_id` must be an integer.",
          entity: "Network",
        });
      const networkId = Number(networkParam);
      if (!core.findNetwork(networkId))
        throw createApiError({
          status: 400,
          code: "UNKNOWN_NETWORK",
          message: `Network ${networkId} is not in the catalogue.`,
          entity: "Network",
        });
      tokens = tokens.filter((t) => t.networkId === networkId);
    }
    const q = c.req.query("q")?.trim().toLowerCase();
    if (q) {
      tokens = tokens.filter(
        (t) =>
          t.symbol.toLowerCase().includes(q) ||
          t.name.toLowerCase().includes(q) ||
          t.contractAddress.toLowerCase().includes(q),
      );
    }
    const total = tokens.length;
    return c.json({
      data: tokens.slice(offset, offset + limit).map((t) => ({
        network_id: t.networkId,
        name: t.name,
        contract_address: t.contractAddress,
        symbol: t.symbol,
        icon_url: t.iconUrl,
        wrapped_token_address: t.wrappedTokenAddress,
      })),
      pagination: { limit, offset, pages: Math.ceil(total / limit), total },
    });
  });

  api.get("/swaps/history", async (c) => {
    const { limit, offset } = parsePagination({
      limit: c.req.query("limit"),
      offset: c.req.query("offset"),
      entity: "Swap",
    });
    const wallets = (c.req.queries("wallet") ?? []).filter((w) => w !== "").map((w) => w.toLowerCase());
    const retailId = c.req.query("retail_id") || undefined;
    if (wallets.length === 0 && retailId === undefined)
      throw createApiError({
        status: 400,
        code: "MISSING_FILTER",
        message: "Give `wallet` (repeatable) or `retail_id`.",
        entity: "Swap",
      });
    const activeParam = c.req.query("active");
    let activeOnly = false;
    if (activeParam !== undefined) {
      if (!["true", "false", "1", "0"].includes(activeParam))
        throw createApiError({
          status: 400,
          code: "INVALID_FIELD",
          message: "`active` must be true or false.",
          entity: "Swap",
        });
      activeOnly = activeParam === "true" || activeParam === "1";
    }
    const { rows, total } = await core.store.listHistory({
      wallets: wallets.length > 0 ? wallets : undefined,
      retailId,
      partnerId: c.get("partnerId"),
      activeOnly,
      limit,
      offset,
    });
    return c.json({
      items: rows.map((row) => ({ ...toStatusRecord(row), kyc_link: null })),
      limit,
      offset,
      total,
    });
  });

  app.route(API_PREFIX, api);
  if (dev) app.route("/sandbox", createDevRoutes({ core, dev }));
  return app;
}

function createDevRoutes({ core, dev }: { core: Core; dev: DevControls }): Hono {
  const routes = new Hono();
  const bad = (code: string, message: string) =>
    createApiError({ status: 400, code, message, entity: "Other" });
  const legAndToken = (networkId: number, token: string) => {
    const leg = core.legs.get(networkId);
    if (!leg)
      throw createApiError({
        status: 400,
        code: "UNKNOWN_NETWORK",
        message: `No network ${networkId}.`,
        entity: "Network",
      });
    const found =
      core.findToken(networkId, token) ??
      core.tokens.find((t) => t.networkId === networkId && t.symbol === token);
    if (!found)
      throw createApiError({
        status: 400,
        code: "UNKNOWN_TOKEN",
        message: `No token ${token} on network ${networkId}.`,
        entity: "Token",
      });
    return { leg, token: found };
  };
  const legCall = <T>(call: () => Promise<T>): Promise<T> => callLeg({ entity: "Other", call });

  routes.get("/chains", (c) => c.json(dev.chains()));

  // Why is an intent where it is: the resolver's bookkeeping (never the secret).
  routes.get("/intents/:intent_id", async (c) => {
    const id = c.req.param("intent_id");
    const row = isUuid(id) ? await core.store.getIntent(id.toLowerCase()) : undefined;
    if (!row) throw createIntentNotFoundError();
    return c.json({
      intent_id: row.id,
      status: row.status,
      pending_step: row.pendingStep,
      last_error: row.lastError,
      deadline_secs: row.deadlineSecs,
      delivered_amount_lots: row.deliveredAmountLots,
      refund_tx: row.refundTx,
      approval_mechanism: row.approvalMechanism,
      leg_data: row.legData,
    });
  });

  routes.post("/faucet", async (c) => {
    const f = readFields({ body: await readJsonBody(c, "Other"), entity: "Other" });
    const networkId = f.integer("network_id");
    const address = f.string("address");
    const { leg, token } = legAndToken(networkId, f.string("token"));
    if (!leg.isValidAddress(address))
      throw bad("INVALID_ADDRESS", `Not a valid address on network ${networkId}.`);
    const amount = parseDecimalAmount({ text: f.numberText("amount"), decimals: token.decimals });
    if (!amount.ok) throw bad("INVALID_AMOUNT", `\`amount\` is invalid (${amount.problem}).`);
    const { txHash } = await legCall(() =>
      leg.faucet({ address, token: token.contractAddress, amountLots: amount.lots }),
    );
    return c.json({
      network_id: networkId,
      address,
      token: token.contractAddress,
      amount_lots: amount.lots.toString(),
      tx_hash: txHash,
    });
  });

  routes.get("/balance", async (c) => {
    const networkParam = c.req.query("network_id") ?? "";
    const address = c.req.query("address") ?? "";
    const tokenParam = c.req.query("token") ?? "";
    if (!/^\d{1,9}$/.test(networkParam) || address === "" || tokenParam === "")
      throw bad("MISSING_FIELD", "Give `network_id`, `address` and `token`.");
    const { leg, token } = legAndToken(Number(networkParam), tokenParam);
    if (!leg.isValidAddress(address)) throw bad("INVALID_ADDRESS", "Not a valid address on this network.");
    const lots = await legCall(() => leg.balanceOf(address, token.contractAddress));
    return c.json({
      network_id: token.networkId,
      address,
      token: token.contractAddress,
      symbol: token.symbol,
      decimals: token.decimals,
      balance_lots: lots.toString(),
      balance: formatLots({ lots, decimals: token.decimals }),
    });
  });

  const clockBody = () => ({ now_ms: core.clock.nowMs(), offset_ms: dev.clockOffsetMs() });
  routes.get("/clock", (c) => c.json(clockBody()));
  routes.post("/clock", async (c) => {
    const f = readFields({ body: await readJsonBody(c, "Other"), entity: "Other" });
    const secs = f.integer("advance_secs");
    if (secs < 0) throw bad("INVALID_FIELD", "`advance_secs` must be >= 0 (the clock only moves forward).");
    // Times are stored as bigint ms and handled as JS numbers and Dates: keep the clock far inside both ranges.
    if (dev.clockOffsetMs() + secs * 1000 > MAX_CLOCK_OFFSET_MS)
      throw bad("CLOCK_OUT_OF_RANGE", "The sandbox clock can move at most 100 years ahead in all.");
    await dev.advanceClock(secs);
    return c.json(clockBody());
  });

  routes.get("/faults", (c) => c.json(dev.faults()));
  routes.post("/faults", async (c) => {
    const body = await readJsonBody(c, "Other");
    if (body === null || typeof body !== "object" || Array.isArray(body))
      throw bad("INVALID_BODY", "A JSON object is required.");
    const changes: Partial<Faults> = {};
    for (const [key, value] of Object.entries(body)) {
      if (key !== "fail_delivery" && key !== "decline_all")
        throw bad("UNKNOWN_FAULT", `Unknown fault \`${key}\`.`);
      if (typeof value !== "boolean") throw bad("INVALID_FIELD", `\`${key}\` must be a boolean.`);
      changes[key] = value;
    }
    return c.json(dev.setFaults(changes));
  });
  return routes;
}
