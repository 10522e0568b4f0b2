/** Brand set on every swapintent error, so `isSwapIntentError` works across duplicated copies of this module. */
const errorBrand = Symbol.for("swapintent.error");

/** Longest text a detail value may take in `message`; `details` always keeps the full value. */
const maxDetailLength = 300;

/**
 * The one error class of swapintent. Every failure of every package is a `BaseError` (or a subclass)
 * with a stable string `code` that callers switch on; `shortMessage` is one human sentence and
 * `details` adds facts (never a private key, seed, preimage or API key).
 *
 * @example
 * throw new BaseError("QUOTE_EXPIRED", "The quote has expired.", { details: { quoteId, expiryMs } });
 */
export class BaseError<TCode extends string = string> extends Error {
  override name = "SwapIntentError";
  /** Stable machine-readable code, for example `QUOTE_EXPIRED` or `PERMIT2_SPENDER_MISMATCH`. */
  readonly code: TCode;
  /** One sentence saying what went wrong. */
  readonly shortMessage: string;
  /** Extra facts, for example the expected and actual values of a failed check. */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: TCode,
    shortMessage: string,
    options: { details?: Record<string, unknown> | undefined; cause?: unknown } = {},
  ) {
    const details = options.details ?? {};
    const detailLines = Object.entries(details).map(([k, v]) => `  ${k}: ${formatDetail(v)}`);
    super([`[${code}] ${shortMessage}`, ...detailLines].join("\n"), { cause: options.cause });
    this.code = code;
    this.shortMessage = shortMessage;
    this.details = details;
    Object.defineProperty(this, errorBrand, { value: true });
  }
}

function formatDetail(value: unknown): string {
  let text: string;
  if (typeof value === "bigint") text = `${value.toString()}n`;
  else if (value instanceof Date) text = value.toISOString();
  else if (typeof value === "string") text = value;
  else {
    try {
      text =
        JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? `${v.toString()}n` : v)) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > maxDetailLength ? `${text.slice(0, maxDetailLength)}… (${text.length} chars)` : text;
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
): error is BaseError<TCode> {
  if (typeof error !== "object" || error === null) return false;
  const candidate = error as {
    [errorBrand]?: unknown;
    name?: unknown;
    code?: unknown;
    shortMessage?: unknown;
  };
  const isOurs =
    error instanceof BaseError ||
    candidate[errorBrand] === true ||
    (candidate.name === "SwapIntentError" &&
      typeof candidate.code === "string" &&
      typeof candidate.shortMessage === "string");
  return isOurs && (code === undefined || candidate.code === code);
}
