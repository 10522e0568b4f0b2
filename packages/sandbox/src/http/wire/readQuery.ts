import type { Context } from "hono";
import { z } from "zod";
import type { ErrorEntity } from "../apiError.js";
import { createWireError } from "./createWireError.js";

/** Whether a query field takes every value of a repeated parameter (an array schema, optional or not). */
function isRepeatable(field: z.ZodType): boolean {
  const inner = field instanceof z.ZodOptional ? field.unwrap() : field;
  return inner instanceof z.ZodArray || (inner instanceof z.ZodPipe && inner.in instanceof z.ZodArray);
}

/**
 * Read a request's query parameters with their wire schema (an object whose fields are the parameters: a string, or
 * for an array field every value of a repeated parameter); a refused one is the first issue's 400 (see
 * `createWireError`). Parameters the schema does not name are ignored.
 *
 * @example const { limit, offset } = readQuery({ c, schema: TokensQuerySchema, entity: "Token" });
 */
export function readQuery<Shape extends z.ZodRawShape>({
  c,
  schema,
  entity,
}: {
  c: Context;
  schema: z.ZodObject<Shape>;
  entity: ErrorEntity;
}): z.output<z.ZodObject<Shape>> {
  const input: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.shape) as [string, z.ZodType][])
    input[name] = isRepeatable(field) ? (c.req.queries(name) ?? []) : c.req.query(name);
  const result = schema.safeParse(input);
  if (!result.success) throw createWireError({ issue: result.error.issues[0], entity });
  return result.data;
}
