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

const isOptionalText = (value: unknown) => value === undefined || typeof value === "string";

/**
 * The `params` of a custom issue when they are a field check's own (see `WireIssueParams`): an API code in capitals
 * and, where given, text for the message and a known entity. Anything else (a refinement with other params, none,
 * or params of the wrong types) is not ours to answer with.
 */
function readWireIssueParams(issue: z.core.$ZodIssue | undefined): WireIssueParams | undefined {
  const params: unknown = issue?.code === "custom" ? issue.params : undefined;
  if (typeof params !== "object" || params === null) return undefined;
  const { code, message, expected, entity } = params as Record<string, unknown>;
  if (typeof code !== "string" || !/^[A-Z][A-Z0-9_]*$/.test(code)) return undefined;
  if (!isOptionalText(message) || !isOptionalText(expected)) return undefined;
  return {
    code,
    message: message as string | undefined,
    expected: expected as string | undefined,
    entity: typeof entity === "string" && ENTITIES.has(entity) ? entity : undefined,
  };
}

/**
 * The 400 answer of the first issue a wire schema found (issues come in the order the schema lists its fields).
 * A field's own issue carries its code (`MISSING_FIELD`, `INVALID_FIELD`, ...) and either the whole message or what
 * the field must be, and the message names the field by its path; any other issue (zod's own, or a refinement whose
 * params are not a field check's) is `INVALID_FIELD` naming its path, never an uncoded error.
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
  const params = readWireIssueParams(issue);
  const field = (issue?.path ?? []).map(String).join(".");
  const errorEntity = (params?.entity as ErrorEntity | undefined) ?? entity;
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
