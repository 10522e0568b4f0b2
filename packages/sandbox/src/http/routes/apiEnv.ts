import type { Hono } from "hono";
import type { Core } from "../../service/core.js";

/** What the `/affiliate/v1` routes know about the request once authenticated. */
export type ApiEnv = { Variables: { partnerId: string } };

/** The `/affiliate/v1` app the route groups register on (authentication already runs in front of them). */
export type ApiApp = Hono<ApiEnv>;

/** Registers one group of `/affiliate/v1` routes. */
export type RegisterRoutes = (api: ApiApp, core: Core) => void;
