import { Hono } from "hono";
import { cors } from "hono/cors";
import type { Core } from "../service/core.js";
import type { Authenticator } from "./createAuthenticator.js";
import { createOpenApiDocument } from "./createOpenApiDocument.js";
import {
  answerNoRoute,
  clientAddress,
  createErrorHandler,
  drainUnreadBody,
  limitBodySize,
  refuseUnstorableQuery,
} from "./requestHygiene.js";
import type { ApiEnv } from "./routes/apiEnv.js";
import { registerCatalogueRoutes } from "./routes/catalogueRoutes.js";
import { createDevRoutes, type DevControls } from "./routes/devRoutes.js";
import { registerHistoryRoutes } from "./routes/historyRoutes.js";
import { registerIntentRoutes } from "./routes/intentRoutes.js";
import { registerQuoteRoutes } from "./routes/quoteRoutes.js";
import { API_PREFIX } from "./wire/operations.js";

export { API_PREFIX } from "./wire/operations.js";

/** The `/affiliate/v1` app: every request authenticated first, then the spec's routes, grouped by resource. */
function createApi(core: Core, authenticate: Authenticator): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();
  api.use("*", async (c, next) => {
    const caller = await authenticate(c, clientAddress(c));
    c.set("partnerId", caller.partnerId);
    await next();
  });
  for (const register of [
    registerQuoteRoutes,
    registerIntentRoutes,
    registerCatalogueRoutes,
    registerHistoryRoutes,
  ])
    register(api, core);
  return api;
}

/**
 * Build the HTTP app: every endpoint of the spec under `/affiliate/v1`, the approvals endpoint of design §2,
 * the OpenAPI document (built from the wire schemas the routes read requests with), and (only when `dev`) the
 * `/sandbox/*` endpoints.
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
  app.onError(createErrorHandler((message) => core.log(message)));
  app.notFound(answerNoRoute);
  app.use("*", drainUnreadBody);
  // Browser wallets under development call the sandbox from their own origin.
  app.use(
    "*",
    cors({
      origin: "*",
      allowHeaders: ["content-type", "x-api-key", "x-api-signature", "x-api-timestamp", "x-api-nonce"],
      exposeHeaders: ["Retry-After"],
    }),
  );
  app.use("*", limitBodySize);
  app.use("*", refuseUnstorableQuery);

  // With dev routes on, the document describes them too (tag `sandbox`).
  const openApi = createOpenApiDocument({ dev: dev !== undefined });
  app.get(`${API_PREFIX}/openapi.json`, (c) => c.json(openApi));
  app.route(API_PREFIX, createApi(core, authenticate));
  if (dev) app.route("/sandbox", createDevRoutes({ core, dev }));
  return app;
}
