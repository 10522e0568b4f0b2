import { createQuote } from "../../service/createQuote.js";
import { readFields } from "../readFields.js";
import { readJsonBody } from "../readJsonBody.js";
import type { RegisterRoutes } from "./apiEnv.js";

/** `POST /quotes/best` (spec 2.1): price a swap and store the quote for the calling partner. */
export const registerQuoteRoutes: RegisterRoutes = (api, core) => {
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
};
