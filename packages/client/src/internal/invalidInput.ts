import { type ClientError, type ClientErrorDetails, createClientError } from "../errors/codes.js";

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

/**
 * The value as an error may show it: a short string, a number, a boolean or null as is; anything else only as its
 * type. A string of 24 characters or more is a key's, seed's or signature's length (32 bytes are 64 hex, 44 base64,
 * 43 base58 characters), and a caller may pass one by mistake (a private key as the public key, a seed as the amount).
 */
function describeValue(value: unknown): unknown {
  if (typeof value === "string" && value.length < 24) return value;
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return value;
  if (value === null) return null;
  return typeof value;
}
