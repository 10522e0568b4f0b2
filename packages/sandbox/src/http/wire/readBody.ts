import type { Context } from "hono";
import type { z } from "zod";
import type { ErrorEntity } from "../apiError.js";
import { createApiError } from "../apiError.js";
import { readJsonBody } from "../readJsonBody.js";
import { createWireError } from "./createWireError.js";
import { readNumberText } from "./readNumberText.js";

/**
 * Read a request's JSON body (numbers kept as their source text) and check it with its wire schema, which must
 * describe an object: 400 `INVALID_BODY` for anything else (`objectMessage` says so), else the first issue's 400
 * (see `createWireError`); unknown fields are ignored. Returns the schema's output.
 *
 * @example const request = await readBody({ c, schema: QuoteRequestSchema, entity: "Quote" });
 */
export async function readBody<Schema extends z.ZodType>({
  c,
  schema,
  entity,
  objectMessage = "The request body must be a JSON object.",
}: {
  c: Context;
  schema: Schema;
  entity: ErrorEntity;
  objectMessage?: string;
}): Promise<z.output<Schema>> {
  const body: unknown = await readJsonBody(c, entity);
  if (body === null || typeof body !== "object" || Array.isArray(body) || readNumberText(body) !== undefined)
    throw createApiError({ status: 400, code: "INVALID_BODY", message: objectMessage, entity });
  const result = schema.safeParse(body);
  if (!result.success) throw createWireError({ issue: result.error.issues[0], entity });
  return result.data;
}
