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

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Parse JSON text (RFC 8259) keeping every number as its source text. Strings are decoded by `JSON.parse`
 * of the string token, so escapes behave exactly as in the platform parser. Duplicate keys: the last wins.
 * Every refusal is a {@link JsonSyntaxError}, never another error.
 *
 * @example parseJsonLossless({ text: '{"amount":0.1}' }) // { amount: JsonNumber { text: "0.1" } }
 */
export function parseJsonLossless({ text }: { text: string }): LosslessJson {
  let i = 0;
  const ws = () => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };
  const fail = (what: string): never => {
    throw new JsonSyntaxError(what, i);
  };
  const readString = (): string => {
    const start = i;
    i++; // opening quote
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        try {
          return JSON.parse(text.slice(start, i)) as string;
        } catch {
          // an invalid escape (`\x41`, `\u12`, a backslash before a control character): a syntax error here too
          i = start;
          return fail("invalid escape in string");
        }
      }
      if (c === 0x5c) i += 2;
      else if (c < 0x20) fail("control character in string");
      else i++;
    }
    return fail("unterminated string");
  };
  const readValue = (depth: number): LosslessJson => {
    if (depth > 64) fail("nesting too deep");
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const out: Record<string, LosslessJson> = {};
      ws();
      if (text[i] === "}") {
        i++;
        return out;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail("expected a string key");
        const key = readString();
        ws();
        if (text[i] !== ":") fail("expected ':'");
        i++;
        const value = readValue(depth + 1);
        Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return out;
        }
        fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      i++;
      const out: LosslessJson[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return out;
      }
      for (;;) {
        out.push(readValue(depth + 1));
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return out;
        }
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') return readString();
    if (text.startsWith("true", i)) {
      i += 4;
      return true;
    }
    if (text.startsWith("false", i)) {
      i += 5;
      return false;
    }
    if (text.startsWith("null", i)) {
      i += 4;
      return null;
    }
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (match) {
      i += match[0].length;
      return new JsonNumber(match[0]);
    }
    return fail("unexpected character");
  };
  const value = readValue(0);
  ws();
  if (i !== text.length) fail("unexpected trailing text");
  return value;
}
