import type { Context } from "hono";
import { JsonSyntaxError, type LosslessJson, parseJsonLossless } from "../json/parseJsonLossless.js";
import { createApiError, type ErrorEntity } from "./apiError.js";
import { isStorableJson } from "./isStorableText.js";

/**
 * Read the request body as JSON, numbers kept as their source text; 400 when it is empty or not JSON, and
 * 400 `INVALID_TEXT` when a key or string holds a NUL or a lone surrogate (text the database cannot store).
 */
export async function readJsonBody(c: Context, entity: ErrorEntity): Promise<LosslessJson> {
  const text = await c.req.text();
  if (text.trim() === "")
    throw createApiError({ status: 400, code: "INVALID_BODY", message: "A JSON body is required.", entity });
  let body: LosslessJson;
  try {
    body = parseJsonLossless({ text });
  } catch (error) {
    if (error instanceof JsonSyntaxError)
      throw createApiError({
        status: 400,
        code: "MALFORMED_JSON",
        message: `The body is not JSON (${error.message}).`,
        entity,
      });
    throw error;
  }
  if (!isStorableJson(body))
    throw createApiError({
      status: 400,
      code: "INVALID_TEXT",
      message: "A string in the body holds a NUL character or an unpaired UTF-16 surrogate.",
      entity,
    });
  return body;
}
