import type { z } from "zod";
import type { ServiceError } from "../../service/serviceError.js";
import { createApiError, type ErrorEntity } from "../apiError.js";
import type { WireIssueParams } from "./bodyFields.js";

const ENTITIES: ReadonlySet<string> = new Set([
  "Quote",
  "Intent",
  "Approval",
  "Swap",
  "Network",
  "Token",
  "Other",
]);

/**
 * The 400 answer of the first issue a wire schema found (issues come in the order the schema lists its fields).
 * A field's own issue carries its code (`MISSING_FIELD`, `INVALID_FIELD`, ...) and either the whole message or what
 * the field must be, and the message names the field by its path; an issue of zod's own (a schema with no field
 * check of ours) is `INVALID_FIELD` naming its path, never an uncoded error.
 *
 * @example createWireError({ issue: { code: "custom", path: ["amount"], message: "", params: { code: "MISSING_FIELD" } }, entity: "Quote" })
 */
export function createWireError({
  issue,
  entity,
}: {
  issue: z.core.$ZodIssue | undefined;
  entity: ErrorEntity;
}): ServiceError {
  const params = (issue?.code === "custom" ? issue.params : undefined) as WireIssueParams | undefined;
  const field = (issue?.path ?? []).map(String).join(".");
  const errorEntity =
    params?.entity !== undefined && ENTITIES.has(params.entity) ? (params.entity as ErrorEntity) : entity;
  const bad = (code: string, message: string) =>
    createApiError({ status: 400, code, message, entity: errorEntity });
  if (params?.message !== undefined) return bad(params.code, params.message);
  if (params?.code === "MISSING_FIELD") return bad("MISSING_FIELD", `The field \`${field}\` is required.`);
  if (params !== undefined)
    return bad(params.code, `The field \`${field}\` must be ${params.expected ?? "valid"}.`);
  return bad(
    "INVALID_FIELD",
    field === "" ? "The request is invalid." : `The field \`${field}\` is invalid.`,
  );
}
