import { JsonNumber, type LosslessJson } from "../json/parseJsonLossless.js";
import type { Json } from "../legs/types.js";
import { createApiError, type ErrorEntity } from "./apiError.js";
import { isUuid } from "./isUuid.js";
import { toPlainJson } from "./toPlainJson.js";

/** Typed readers over one parsed JSON request body; every failure is a 400 naming the field. */
export interface FieldReader {
  string(name: string): string;
  optionalString(name: string): string | undefined;
  integer(name: string): number;
  uuid(name: string): string;
  optionalUuid(name: string): string | undefined;
  /** A number field as its exact source text (a decimal string is tolerated). */
  numberText(name: string): string;
  /** Any JSON value (numbers converted to JS numbers), or undefined when absent or null. */
  json(name: string): Json | undefined;
}

/**
 * Create readers over a request body, which must be a JSON object.
 *
 * @example readFields({ body, entity: "Quote" }).integer("source_chain")
 */
export function readFields({ body, entity }: { body: LosslessJson; entity: ErrorEntity }): FieldReader {
  const bad = (code: string, message: string) => createApiError({ status: 400, code, message, entity });
  if (body === null || typeof body !== "object" || Array.isArray(body) || body instanceof JsonNumber) {
    throw bad("INVALID_BODY", "The request body must be a JSON object.");
  }
  const record = body as Record<string, LosslessJson>;
  const get = (name: string) => (Object.hasOwn(record, name) ? record[name] : undefined);
  const missing = (name: string) => bad("MISSING_FIELD", `The field \`${name}\` is required.`);
  const optionalString = (name: string) => {
    const value = get(name);
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string") throw bad("INVALID_FIELD", `The field \`${name}\` must be a string.`);
    return value;
  };
  const string = (name: string) => {
    const value = optionalString(name);
    if (value === undefined || value === "") throw missing(name);
    return value;
  };
  const optionalUuid = (name: string) => {
    const value = optionalString(name);
    if (value !== undefined && !isUuid(value))
      throw bad("INVALID_FIELD", `The field \`${name}\` must be a UUID.`);
    return value;
  };
  return {
    string,
    optionalString,
    optionalUuid,
    uuid(name) {
      const value = optionalUuid(name);
      if (value === undefined) throw missing(name);
      return value;
    },
    integer(name) {
      const value = get(name);
      if (value === undefined || value === null) throw missing(name);
      if (
        !(value instanceof JsonNumber) ||
        !/^-?\d+$/.test(value.text) ||
        !Number.isSafeInteger(value.toNumber())
      )
        throw bad("INVALID_FIELD", `The field \`${name}\` must be an integer.`);
      return value.toNumber();
    },
    numberText(name) {
      const value = get(name);
      if (value === undefined || value === null) throw missing(name);
      if (value instanceof JsonNumber) return value.text;
      if (typeof value === "string" && value.trim() !== "") return value.trim();
      throw bad("INVALID_FIELD", `The field \`${name}\` must be a number.`);
    },
    json(name) {
      const value = get(name);
      return value === undefined || value === null ? undefined : toPlainJson(value);
    },
  };
}
