import { cutText } from "../internal/cutText.js";

/** Brand set on every swapintent error, so `isSwapIntentError` works across duplicated copies of this module. */
const errorBrand = Symbol.for("swapintent.error");

/** Longest text a detail value may take in `message`; `details` always keeps the full value. */
const maxDetailLength = 300;

/**
 * `text` with every character that could forge or hide a line in a log or a terminal as `\u{…}` (hex): controls
 * (newline, CR, ESC, NUL, DEL, C1), format characters (bidi overrides, zero-width, BOM), line and paragraph
 * separators, lone surrogates, private-use and unassigned code points.
 */
const escapeUnsafe = (text: string) =>
  text.replace(/[\p{C}\u2028\u2029]/gu, (char) => `\\u{${char.codePointAt(0)?.toString(16)}}`);

/**
 * The one error class of swapintent. Every failure of every package is a `SwapIntentError` (or a subclass)
 * with a stable string `code` that callers switch on; `shortMessage` is one human sentence and
 * `details` adds facts (never a private key, seed, preimage or API key).
 *
 * @example
 * throw new SwapIntentError("QUOTE_EXPIRED", "The quote has expired.", { details: { quoteId, expiryMs } });
 */
export class SwapIntentError<
  TCode extends string = string,
  TDetails extends Readonly<Record<string, unknown>> = Readonly<Record<string, unknown>>,
> extends Error {
  override name = "SwapIntentError";
  /** Stable machine-readable code, for example `QUOTE_EXPIRED` or `PERMIT2_SPENDER_MISMATCH`. */
  declare readonly code: TCode;
  /** One sentence saying what went wrong. */
  declare readonly shortMessage: string;
  /** Extra facts, for example the expected and actual values of a failed check. */
  declare readonly details: Readonly<TDetails>;

  constructor(
    code: TCode,
    shortMessage: string,
    options: { details?: TDetails | undefined; cause?: unknown } = {},
  ) {
    const details = options.details ?? ({} as TDetails);
    const detailLines = Object.entries(details).map(([k, v]) => `  ${k}: ${formatDetail(v)}`);
    // one line per detail, whatever text (a server's) they quote
    const short = escapeUnsafe(shortMessage);
    super([`[${code}] ${short}`, ...detailLines].join("\n"), { cause: options.cause });
    this.code = code;
    this.shortMessage = short;
    this.details = details;
    Object.defineProperty(this, errorBrand, { value: true });
  }

  /**
   * What `JSON.stringify(error)` writes: name, code, shortMessage, message and details, with bigints as
   * `"123n"` text (plain `JSON.stringify` throws on a bigint, so a logger would fail on the error it logs).
   * The `cause` is left out.
   *
   * @example
   * JSON.stringify(new SwapIntentError("INVALID_INPUT", "Bad amount.", { details: { value: 5n } }));
   * // {"name":"SwapIntentError","code":"INVALID_INPUT",…,"details":{"value":"5n"}}
   */
  toJSON(): Record<string, unknown> {
    let details: unknown;
    try {
      details = JSON.parse(JSON.stringify(this.details, bigintAsText));
    } catch {
      details = {}; // a detail that cannot be written (a cycle): the message still holds every detail
    }
    return {
      name: this.name,
      code: this.code,
      shortMessage: this.shortMessage,
      message: this.message,
      details,
    };
  }
}

/**
 * @deprecated Use SwapIntentError (the same class: `instanceof`, `extends` and `isSwapIntentError` agree across both
 * names; this one collides with viem's `BaseError`).
 *
 * @example
 * if (error instanceof BaseError) console.log(error.code); // prefer SwapIntentError
 */
export const BaseError: typeof SwapIntentError = SwapIntentError;
/** @deprecated Use SwapIntentError. */
export type BaseError<
  TCode extends string = string,
  TDetails extends Readonly<Record<string, unknown>> = Readonly<Record<string, unknown>>,
> = SwapIntentError<TCode, TDetails>;

function bigintAsText(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? `${value}n` : value;
}

function formatDetail(value: unknown): string {
  let text: string;
  if (typeof value === "bigint") text = `${value}n`;
  else if (value instanceof Date) text = value.toISOString();
  else if (typeof value === "string") text = value;
  else {
    try {
      text = JSON.stringify(value, bigintAsText) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return cutText(escapeUnsafe(text), maxDetailLength);
}

/**
 * True when `error` is a swapintent error, optionally with the given code.
 *
 * Works across duplicated copies of `@swapintent/client` (two versions in one bundle, ESM and CJS side by side):
 * besides `instanceof`, it accepts an error carrying the swapintent brand, or one shaped like a swapintent error
 * (`name === "SwapIntentError"` with a string `code` and `shortMessage`).
 *
 * @example
 * try {
 *   await client.createIntent(params);
 * } catch (error) {
 *   if (isSwapIntentError(error, "QUOTE_EXPIRED")) quote = await client.getBestQuote(quoteParams);
 *   else throw error;
 * }
 */
export function isSwapIntentError<TCode extends string = string>(
  error: unknown,
  code?: TCode,
): error is SwapIntentError<TCode> {
  if (typeof error !== "object" || error === null) return false;
  const candidate = error as {
    [errorBrand]?: unknown;
    name?: unknown;
    code?: unknown;
    shortMessage?: unknown;
  };
  const isOurs =
    error instanceof SwapIntentError ||
    candidate[errorBrand] === true ||
    (candidate.name === "SwapIntentError" &&
      typeof candidate.code === "string" &&
      typeof candidate.shortMessage === "string");
  return isOurs && (code === undefined || candidate.code === code);
}

/**
 * The error type of one package, built from its map of code to details: a union with one `SwapIntentError` per code, so
 * narrowing `code` (with a `switch` or a guard) narrows `details` to that code's facts.
 *
 * @example
 * ```ts
 * interface MyErrorDetails {
 *   MY_AMOUNT_MISMATCH: { expected: bigint; actual: bigint };
 *   MY_INPUT_INVALID: { field: string };
 * }
 * type MyError = CodedError<MyErrorDetails>;
 * declare const error: MyError;
 * if (error.code === "MY_AMOUNT_MISMATCH") console.log(error.details.expected); // a bigint
 * ```
 */
export type CodedError<
  TDetailsByCode extends { [C in keyof TDetailsByCode]: Readonly<Record<string, unknown>> },
  TCode extends keyof TDetailsByCode & string = keyof TDetailsByCode & string,
> = { [C in TCode]: SwapIntentError<C, TDetailsByCode[C]> }[TCode];
