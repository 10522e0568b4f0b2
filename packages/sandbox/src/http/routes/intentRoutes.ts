import type { SubmittedApproval } from "../../legs/types.js";
import { addApproval } from "../../service/addApproval.js";
import { createIntent } from "../../service/createIntent.js";
import { toStatusRecord } from "../../service/toStatusRecord.js";
import { createBadRequestError, createIntentNotFoundError } from "../apiError.js";
import { isUuid } from "../isUuid.js";
import { type FieldReader, readFields } from "../readFields.js";
import { readJsonBody } from "../readJsonBody.js";
import type { RegisterRoutes } from "./apiEnv.js";

// A Map, not an object literal: a client-chosen `type` such as `toString` or `__proto__` must find nothing.
const APPROVAL_TYPES: ReadonlyMap<string, SubmittedApproval["type"]> = new Map([
  ["permit2", "permit2"],
  ["psbt", "psbt"],
  ["htlc", "psbt"],
  ["cosign", "cosign"],
]);

/** The `intent_id` path parameter, lower-cased; a 400 `INVALID_ID` when it is not a UUID. */
export function readIntentId(value: string): string {
  if (!isUuid(value)) throw createBadRequestError("INVALID_ID", "The intent id must be a UUID.", "Intent");
  return value.toLowerCase();
}

/** A field the approval must have; 400 `MISSING_FIELD` without it. */
function required<T>(value: T | undefined, field: string): T {
  if (value === undefined)
    throw createBadRequestError("MISSING_FIELD", `The field \`${field}\` is required.`, "Approval");
  return value;
}

/** The approval's `type` (or its alias `approval_type`), with `htlc` mapped to `psbt`. */
function readApprovalType(f: FieldReader): SubmittedApproval["type"] {
  const typeName = required(f.optionalString("type") ?? f.optionalString("approval_type"), "type");
  const type = APPROVAL_TYPES.get(typeName);
  if (!type)
    throw createBadRequestError(
      "INVALID_APPROVAL_TYPE",
      "`type` must be one of permit2, psbt (htlc), cosign.",
      "Approval",
    );
  return type;
}

/** `POST /intents` (spec 4.2), `GET /intents/{id}/status` and `POST /intents/{id}/approvals` (design §2). */
export const registerIntentRoutes: RegisterRoutes = (api, core) => {
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

  api.get("/intents/:intent_id/status", async (c) => {
    const row = await core.store.getStatus(readIntentId(c.req.param("intent_id")), c.get("partnerId"));
    if (!row) throw createIntentNotFoundError();
    return c.json(toStatusRecord(row));
  });

  api.post("/intents/:intent_id/approvals", async (c) => {
    const intentId = readIntentId(c.req.param("intent_id"));
    const f = readFields({ body: await readJsonBody(c, "Approval"), entity: "Approval" });
    const type = readApprovalType(f);
    const signedData = required(f.json("signed_data"), "signed_data");
    return c.json(
      await addApproval({ core, request: { intentId, type, signedData, partnerId: c.get("partnerId") } }),
    );
  });
};
