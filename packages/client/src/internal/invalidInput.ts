import { type ClientError, type ClientErrorDetails, createClientError } from "../errors/codes.js";
import { cutText } from "./cutText.js";

/**
 * Builds the `INVALID_INPUT` error for one parameter (or, with `code`, the `INVALID_OPTIONS` error for one client
 * option): `field` is its name as the caller wrote it, `reason` what it must be; the one message form of both.
 */
export function invalidInput<C extends "INVALID_INPUT" | "INVALID_OPTIONS" = "INVALID_INPUT">(
  field: string,
  reason: string,
  value?: unknown,
  code: C = "INVALID_INPUT" as C,
  cause?: unknown,
): ClientError<C> {
  const details: ClientErrorDetails["INVALID_INPUT"] = { field, reason };
  if (value !== undefined) details.value = describeValue(value);
  return createClientError(
    code,
    `Invalid ${code === "INVALID_INPUT" ? "input" : "option"}: \`${field}\` ${reason}.`,
    details as ClientErrorDetails[C],
    cause,
  );
}

function describeValue(value: unknown): unknown {
  if (typeof value === "string") return cutText(value, 80);
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return value;
  if (value === null) return null;
  return typeof value;
}
