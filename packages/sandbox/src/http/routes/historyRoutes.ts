import { toStatusRecord } from "../../service/toStatusRecord.js";
import { createBadRequestError } from "../apiError.js";
import { HistoryQuerySchema } from "../wire/querySchemas.js";
import { readQuery } from "../wire/readQuery.js";
import type { RegisterRoutes } from "./apiEnv.js";

/** `GET /swaps/history`: the calling partner's swaps of the given wallets (repeatable) or retail user id. */
export const registerHistoryRoutes: RegisterRoutes = (api, core) => {
  api.get("/swaps/history", async (c) => {
    const query = readQuery({ c, schema: HistoryQuerySchema, entity: "Swap" });
    const { limit, offset } = query;
    const wallets = query.wallet ?? [];
    if (wallets.length === 0 && query.retail_id === undefined)
      throw createBadRequestError("MISSING_FILTER", "Give `wallet` (repeatable) or `retail_id`.", "Swap");
    const { rows, total } = await core.store.listHistory({
      wallets: wallets.length > 0 ? wallets : undefined,
      retailId: query.retail_id,
      partnerId: c.get("partnerId"),
      activeOnly: query.active,
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
