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

/** Deepest nesting of arrays and objects accepted. */
const MAX_DEPTH = 64;

/** One pass over JSON text: `i` is the offset of the next character to read. */
class LosslessParser {
  private i = 0;
  constructor(private readonly text: string) {}

  /** The whole text as one value, with nothing but white space after it. */
  parseDocument(): LosslessJson {
    const value = this.readValue(0);
    this.skipWhiteSpace();
    if (this.i !== this.text.length) this.fail("unexpected trailing text");
    return value;
  }

  private fail(what: string): never {
    throw new JsonSyntaxError(what, this.i);
  }

  private skipWhiteSpace(): void {
    while (this.i < this.text.length) {
      const c = this.text.charCodeAt(this.i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.i++;
      else break;
    }
  }

  /** Consume `token` if the text continues with it. */
  private take(token: string): boolean {
    if (!this.text.startsWith(token, this.i)) return false;
    this.i += token.length;
    return true;
  }

  private readValue(depth: number): LosslessJson {
    if (depth > MAX_DEPTH) this.fail("nesting too deep");
    this.skipWhiteSpace();
    const c = this.text[this.i];
    if (c === "{") return this.readObject(depth);
    if (c === "[") return this.readArray(depth);
    if (c === '"') return this.readString();
    if (this.take("true")) return true;
    if (this.take("false")) return false;
    if (this.take("null")) return null;
    NUMBER.lastIndex = this.i;
    const match = NUMBER.exec(this.text);
    if (!match) return this.fail("unexpected character");
    this.i += match[0].length;
    return new JsonNumber(match[0]);
  }

  /** After an item of an object or array: true at its `close` (consumed), false after a `,` (another item follows). */
  private endOfItem(close: "}" | "]"): boolean {
    this.skipWhiteSpace();
    if (this.take(",")) return false;
    if (this.take(close)) return true;
    return this.fail(`expected ',' or '${close}'`);
  }

  private readObject(depth: number): Record<string, LosslessJson> {
    this.i++; // {
    const out: Record<string, LosslessJson> = {};
    this.skipWhiteSpace();
    if (this.take("}")) return out;
    do {
      this.skipWhiteSpace();
      if (this.text[this.i] !== '"') this.fail("expected a string key");
      const key = this.readString();
      this.skipWhiteSpace();
      if (!this.take(":")) this.fail("expected ':'");
      const value = this.readValue(depth + 1);
      // defineProperty, not assignment: a `__proto__` key is data, never the prototype.
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    } while (!this.endOfItem("}"));
    return out;
  }

  private readArray(depth: number): LosslessJson[] {
    this.i++; // [
    const out: LosslessJson[] = [];
    this.skipWhiteSpace();
    if (this.take("]")) return out;
    do out.push(this.readValue(depth + 1));
    while (!this.endOfItem("]"));
    return out;
  }

  private readString(): string {
    const { text } = this;
    const start = this.i;
    this.i++; // opening quote
    while (this.i < text.length) {
      const c = text.charCodeAt(this.i);
      if (c === 0x22) {
        this.i++;
        try {
          return JSON.parse(text.slice(start, this.i)) as string;
        } catch {
          // an invalid escape (`\x41`, `\u12`, a backslash before a control character): a syntax error here too
          this.i = start;
          return this.fail("invalid escape in string");
        }
      }
      if (c === 0x5c) this.i += 2;
      else if (c < 0x20) this.fail("control character in string");
      else this.i++;
    }
    return this.fail("unterminated string");
  }
}

/**
 * Parse JSON text (RFC 8259) keeping every number as its source text. Strings are decoded by `JSON.parse`
 * of the string token, so escapes behave exactly as in the platform parser. Duplicate keys: the last wins.
 * Every refusal is a {@link JsonSyntaxError}, never another error.
 *
 * @example parseJsonLossless({ text: '{"amount":0.1}' }) // { amount: JsonNumber { text: "0.1" } }
 */
export function parseJsonLossless({ text }: { text: string }): LosslessJson {
  return new LosslessParser(text).parseDocument();
}
