import type { LosslessJson } from "../../json/parseJsonLossless.js";
import { addApproval } from "../../service/addApproval.js";
import { createIntent } from "../../service/createIntent.js";
import { toStatusRecord } from "../../service/toStatusRecord.js";
import { createBadRequestError, createIntentNotFoundError } from "../apiError.js";
import { isUuid } from "../isUuid.js";
import { toPlainJson } from "../toPlainJson.js";
import { readBody } from "../wire/readBody.js";
import { ApprovalEnvelopeSchema, IntentRequestSchema } from "../wire/requestSchemas.js";
import type { RegisterRoutes } from "./apiEnv.js";

/** The `intent_id` path parameter, lower-cased; a 400 `INVALID_ID` when it is not a UUID. */
export function readIntentId(value: string): string {
  if (!isUuid(value)) throw createBadRequestError("INVALID_ID", "The intent id must be a UUID.", "Intent");
  return value.toLowerCase();
}

/** `POST /intents` (spec 4.2), `GET /intents/{id}/status` and `POST /intents/{id}/approvals` (design §2). */
export const registerIntentRoutes: RegisterRoutes = (api, core) => {
  api.post("/intents", async (c) => {
    const body = await readBody({ c, schema: IntentRequestSchema, entity: "Intent" });
    const intent = await createIntent({
      core,
      request: {
        quoteId: body.quote_id,
        refundAddress: body.refund_address,
        retailUserId: body.retail_user_id,
        userDestinationAddress: body.user_destination_address,
        userSourceAddress: body.user_source_address,
        userSourcePublicKey: body.user_source_public_key,
        partnerId: c.get("partnerId"),
      },
    });
    return c.json(intent);
  });

  api.get("/intents/:intent_id/status", async (c) => {
    const row = await core.store.getStatus(readIntentId(c.req.param("intent_id")), c.get("partnerId"));
    if (!row) throw createIntentNotFoundError();
    return c.json(toStatusRecord(row));
  });

  api.post("/intents/:intent_id/approvals", async (c) => {
    const intentId = readIntentId(c.req.param("intent_id"));
    const { type, signedData: submitted } = await readBody({
      c,
      schema: ApprovalEnvelopeSchema,
      entity: "Approval",
    });
    const signedData = toPlainJson(submitted as LosslessJson);
    return c.json(
      await addApproval({ core, request: { intentId, type, signedData, partnerId: c.get("partnerId") } }),
    );
  });
};
