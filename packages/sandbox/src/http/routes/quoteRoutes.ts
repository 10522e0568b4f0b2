import { createQuote } from "../../service/createQuote.js";
import { readBody } from "../wire/readBody.js";
import { QuoteRequestSchema } from "../wire/requestSchemas.js";
import type { RegisterRoutes } from "./apiEnv.js";

/** `POST /quotes/best` (spec 2.1): price a swap and store the quote for the calling partner. */
export const registerQuoteRoutes: RegisterRoutes = (api, core) => {
  api.post("/quotes/best", async (c) => {
    const body = await readBody({ c, schema: QuoteRequestSchema, entity: "Quote" });
    const quote = await createQuote({
      core,
      request: {
        sourceChain: body.source_chain,
        sourceToken: body.source_token,
        destChain: body.dest_chain,
        destToken: body.dest_token,
        amountText: body.amount,
        slippageBps: body.slippage_bps,
        swapType: body.swap_type,
        retailUserId: body.retail_user_id,
        partnerId: c.get("partnerId"),
      },
    });
    return c.json(quote);
  });
};
