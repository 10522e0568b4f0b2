import type { ClientError } from "../errors/codes.js";
import { invalidInput } from "../internal/invalidInput.js";
import { JsonNumberText } from "../internal/jsonNumberText.js";

/** Parameters of {@link stringifyCanonicalJson}. */
export interface StringifyCanonicalJsonParameters {
  /** A JSON value: objects, arrays, strings, finite numbers, booleans, `null`; `undefined` members are left out. */
  value: unknown;
}

/** What {@link stringifyCanonicalJson} returns. */
export type StringifyCanonicalJsonReturnType = string;

/** The errors {@link stringifyCanonicalJson} can throw. */
export type StringifyCanonicalJsonErrorType = ClientError<"INVALID_INPUT">;

/**
 * Serializes a JSON value the way request signing needs it: object keys sorted (by UTF-16 code units, as
 * `Array.prototype.sort` orders them), at every depth; no whitespace; strings and numbers as `JSON.stringify`
 * writes them; object members whose value is `undefined` left out. The client sends exactly this text as the
 * request body, so a verifier may check the signature over the raw body bytes.
 *
 * @example stringifyCanonicalJson({ value: { b: [1, { d: 1, c: "x" }], a: null } }) // '{"a":null,"b":[1,{"c":"x","d":1}]}'
 */
export function stringifyCanonicalJson({
  value,
}: StringifyCanonicalJsonParameters): StringifyCanonicalJsonReturnType {
  return write(value);
}

function write(value: unknown): string {
  if (value === null) return "null";
  if (value instanceof JsonNumberText) return value.text;
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw notJson("a non-finite number");
      return JSON.stringify(value);
    case "object": {
      if (Array.isArray(value))
        return `[${value.map((item) => (item === undefined ? "null" : write(item))).join(",")}]`;
      const record = value as Record<string, unknown>;
      const members: string[] = [];
      for (const key of Object.keys(record).sort()) {
        const member = record[key];
        if (member !== undefined) members.push(`${JSON.stringify(key)}:${write(member)}`);
      }
      return `{${members.join(",")}}`;
    }
    default:
      throw notJson(`a ${typeof value}`);
  }
}

function notJson(what: string): ClientError<"INVALID_INPUT"> {
  return invalidInput("body", `cannot contain ${what}`);
}
