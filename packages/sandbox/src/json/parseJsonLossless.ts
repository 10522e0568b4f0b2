import { parse } from "lossless-json";

/** A JSON number kept as the exact text it had in the source (so `0.1` or `1e-7` never pass through a float). */
export class JsonNumber {
  constructor(readonly text: string) {}
  /** The number as a JS float, for fields that are small integers (ids, offsets). */
  toNumber(): number {
    return Number(this.text);
  }
}

/** A parsed JSON value whose numbers are {@link JsonNumber}s. */
export type LosslessJson =
  | null
  | boolean
  | string
  | JsonNumber
  | LosslessJson[]
  | { [key: string]: LosslessJson };

/** Thrown for text that is not JSON; `position` is the offset of the first bad character. */
export class JsonSyntaxError extends Error {
  override name = "JsonSyntaxError";
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at position ${position}`);
  }
}

/** Deepest nesting of arrays and objects accepted: no value inside the 65th. */
const MAX_DEPTH = 64;

/**
 * Most arrays and objects one text may hold. A request body is a handful of them; a megabyte of `[]` or `{}` is half a
 * million allocations, which costs the parser more per byte than any other text.
 */
export const MAX_CONTAINERS = 10_000;

const isWhiteSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * Refuse text over the structure limits before the (recursive) parser sees it: a value nested deeper than
 * {@link MAX_DEPTH} (inside the 65th array or object, anything but white space and its end), or more than
 * {@link MAX_CONTAINERS} arrays and objects. Strings are skipped as the parser reads them (a `"` ends one, a `\`
 * escapes the next character), so each bracket counted is one the parser would open; whatever else is not JSON is
 * left to the parser.
 */
function assertWithinLimits(text: string): void {
  let depth = 0;
  let containers = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isWhiteSpace(c)) continue;
    if (c === 0x5d || c === 0x7d) depth--;
    else if (depth > MAX_DEPTH) throw new JsonSyntaxError("nesting too deep", i);
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (++containers > MAX_CONTAINERS) throw new JsonSyntaxError("too many arrays and objects", i);
    } else if (c === 0x22)
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
  }
}

/**
 * What the parser's refusal means, in our own words: its messages quote the text they stopped at (`but got '‮'`,
 * `Invalid escape character '\x'`), and no byte of a request belongs in an answer. Matched on the message's start;
 * anything unforeseen is an unexpected character.
 */
const REASONS: readonly (readonly [prefix: string, reason: string])[] = [
  ["Comma ',' expected", "expected ',' or the end of the array or object"],
  ["Colon ':' expected", "expected ':'"],
  ["Array item or end of array", "expected ',' or the end of the array or object"],
  ["Quoted object key", "expected a string key"],
  ["Expected end of input", "unexpected trailing text"],
  ["Invalid escape character", "invalid escape in string"],
  ["Invalid unicode character", "invalid escape in string"],
  ["Invalid character", "control character in string"],
  ["End of string", "unterminated string"],
  ["Invalid number", "invalid number"],
];

/** The {@link JsonSyntaxError} of the parser's `SyntaxError`: our reason (never its quote of the text), its position. */
function toJsonSyntaxError(error: SyntaxError): JsonSyntaxError {
  const position = /at position (\d+)$/.exec(error.message)?.[1] ?? "0";
  const reason = REASONS.find(([prefix]) => error.message.startsWith(prefix))?.[1] ?? "unexpected character";
  return new JsonSyntaxError(reason, Number(position));
}

/**
 * Parse JSON text (RFC 8259) keeping every number as its source text, with `lossless-json`. Duplicate keys: the last
 * wins, as in `JSON.parse`; a `__proto__` key is data, never the prototype. Every refusal is a
 * {@link JsonSyntaxError}, never another error.
 *
 * @example parseJsonLossless({ text: '{"amount":0.1}' }) // { amount: JsonNumber { text: "0.1" } }
 */
export function parseJsonLossless({ text }: { text: string }): LosslessJson {
  assertWithinLimits(text);
  try {
    return parse(text, null, {
      parseNumber: (numberText) => new JsonNumber(numberText),
      onDuplicateKey: ({ newValue }) => newValue,
    }) as LosslessJson;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw toJsonSyntaxError(error);
  }
}
