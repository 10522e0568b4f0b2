import type { Context } from "hono";
import { JsonSyntaxError, type LosslessJson, parseJsonLossless } from "../json/parseJsonLossless.js";
import { createApiError, type ErrorEntity } from "./apiError.js";

/** Read the request body as JSON, numbers kept as their source text; 400 when it is empty or not JSON. */
export async function readJsonBody(c: Context, entity: ErrorEntity): Promise<LosslessJson> {
  const text = await c.req.text();
  if (text.trim() === "")
    throw createApiError({ status: 400, code: "INVALID_BODY", message: "A JSON body is required.", entity });
  try {
    return parseJsonLossless({ text });
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
}
