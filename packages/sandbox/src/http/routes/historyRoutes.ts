import { toStatusRecord } from "../../service/toStatusRecord.js";
import { createBadRequestError } from "../apiError.js";
import { parsePagination } from "../parsePagination.js";
import type { RegisterRoutes } from "./apiEnv.js";

/** The `active` filter: true for `true` or `1`, false for `false`, `0` or none; 400 for anything else. */
function readActiveOnly(activeParam: string | undefined): boolean {
  if (activeParam === undefined) return false;
  if (!["true", "false", "1", "0"].includes(activeParam))
    throw createBadRequestError("INVALID_FIELD", "`active` must be true or false.", "Swap");
  return activeParam === "true" || activeParam === "1";
}

/** `GET /swaps/history`: the calling partner's swaps of the given wallets (repeatable) or retail user id. */
export const registerHistoryRoutes: RegisterRoutes = (api, core) => {
  api.get("/swaps/history", async (c) => {
    const { limit, offset } = parsePagination({
      limit: c.req.query("limit"),
      offset: c.req.query("offset"),
      entity: "Swap",
    });
    const wallets = (c.req.queries("wallet") ?? []).filter((w) => w !== "").map((w) => w.toLowerCase());
    const retailId = c.req.query("retail_id") || undefined;
    if (wallets.length === 0 && retailId === undefined)
      throw createBadRequestError("MISSING_FILTER", "Give `wallet` (repeatable) or `retail_id`.", "Swap");
    const activeOnly = readActiveOnly(c.req.query("active"));
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
};
