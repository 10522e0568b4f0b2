/**
 * Field schemas of the request bodies, over a body read by `readJsonBody` (numbers kept as their source text).
 * Each is the one definition of a field: its check (a refused value is an issue whose `params` carry the API's
 * 400 `code`, which `createWireError` turns into the message naming the field) and its JSON Schema (`.meta`), which
 * the OpenAPI document shows. `null` counts as absent, as it always has.
 */
import { z } from "zod";
import { isUuid } from "../isUuid.js";
import { readNumberText } from "./readNumberText.js";

/** The `params` of a field's issue: the API code, and what the field must be (or the whole message). */
export interface WireIssueParams {
  code: string;
  /** Completes "The field `x` must be ..." (INVALID_FIELD). */
  expected?: string;
  /** The whole message, when it is not one of the field messages. */
  message?: string;
  /** The error's entity, when it is not the request's. */
  entity?: string;
}

type RefinementContext = Parameters<Parameters<z.ZodUnknown["superRefine"]>[0]>[1];

const report = (ctx: RefinementContext, params: WireIssueParams) =>
  ctx.addIssue({ code: "custom", message: params.message ?? params.code, params });
const isAbsent = (value: unknown) => value === undefined || value === null;
const UUID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

/** A string that must be present and not empty: MISSING_FIELD, or INVALID_FIELD for another type. */
export const requiredText = z
  .unknown()
  .superRefine((value, ctx) => {
    if (isAbsent(value) || value === "") report(ctx, { code: "MISSING_FIELD" });
    else if (typeof value !== "string") report(ctx, { code: "INVALID_FIELD", expected: "a string" });
  })
  .transform((value) => value as string)
  .meta({ type: "string", minLength: 1 });

/** A string that may be absent (or null): INVALID_FIELD for another type. */
export const optionalText = z
  .unknown()
  .superRefine((value, ctx) => {
    if (!isAbsent(value) && typeof value !== "string")
      report(ctx, { code: "INVALID_FIELD", expected: "a string" });
  })
  .transform((value) => (isAbsent(value) ? undefined : (value as string)))
  .meta({ type: "string" })
  .optional();

const checkUuid = (value: unknown, ctx: RefinementContext) => {
  if (typeof value !== "string") report(ctx, { code: "INVALID_FIELD", expected: "a string" });
  else if (!isUuid(value)) report(ctx, { code: "INVALID_FIELD", expected: "a UUID" });
};

/** A UUID that must be present: MISSING_FIELD, or INVALID_FIELD for another type or another text. */
export const requiredUuid = z
  .unknown()
  .superRefine((value, ctx) => {
    if (isAbsent(value)) report(ctx, { code: "MISSING_FIELD" });
    else checkUuid(value, ctx);
  })
  .transform((value) => value as string)
  .meta({ type: "string", format: "uuid", pattern: UUID_PATTERN });

/** A UUID that may be absent (or null). */
export const optionalUuid = z
  .unknown()
  .superRefine((value, ctx) => {
    if (!isAbsent(value)) checkUuid(value, ctx);
  })
  .transform((value) => (isAbsent(value) ? undefined : (value as string)))
  .meta({ type: "string", format: "uuid", pattern: UUID_PATTERN })
  .optional();

/** A JSON integer within JS's safe range (ids, seconds); a string or a fraction is INVALID_FIELD. */
export const requiredInteger = z
  .unknown()
  .superRefine((value, ctx) => {
    if (isAbsent(value)) return report(ctx, { code: "MISSING_FIELD" });
    const text = readNumberText(value);
    if (text === undefined || !/^-?\d+$/.test(text) || !Number.isSafeInteger(Number(text)))
      report(ctx, { code: "INVALID_FIELD", expected: "an integer" });
  })
  .transform((value) => Number(readNumberText(value)))
  .meta({ type: "integer", minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });

/**
 * An amount in human units, as its exact decimal text: a JSON number (its source text, never a float) or a
 * non-blank decimal string (trimmed). Whether the text is a valid amount for the token is the service's question.
 */
export const decimalText = z
  .unknown()
  .superRefine((value, ctx) => {
    if (isAbsent(value)) return report(ctx, { code: "MISSING_FIELD" });
    if (readNumberText(value) === undefined && (typeof value !== "string" || value.trim() === ""))
      report(ctx, { code: "INVALID_FIELD", expected: "a number" });
  })
  .transform((value) => readNumberText(value) ?? (value as string).trim())
  .meta({
    anyOf: [
      { type: "number", exclusiveMinimum: 0 },
      { type: "string", pattern: "^\\s*[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?\\s*$" },
    ],
    description:
      "Human units, read as exact decimal text (never a float): a JSON number or a decimal string, greater than zero, with at most the token's decimals.",
  });
