import { type ClientError, type ClientErrorDetails, createClientError } from "../errors/codes.js";

/** Builds the `INVALID_INPUT` error for one parameter; `field` is the parameter's name as the caller wrote it. */
export function invalidInput(field: string, reason: string, value?: unknown): ClientError<"INVALID_INPUT"> {
  const details: ClientErrorDetails["INVALID_INPUT"] = { field, reason };
  if (value !== undefined) details.value = describeValue(value);
  return createClientError("INVALID_INPUT", `Invalid input: \`${field}\` ${reason}.`, details);
}

function describeValue(value: unknown): unknown {
  if (typeof value === "string") return value.length > 80 ? `${value.slice(0, 80)}…` : value;
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return value;
  if (value === null) return null;
  return typeof value;
}
