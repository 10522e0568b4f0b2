/**
 * The one error class of swapintent. Every failure of every package is a `BaseError` (or a subclass)
 * with a stable string `code` that callers switch on; `shortMessage` is one human sentence and
 * `details` adds facts (never a private key, seed, preimage or API key).
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
    options: { details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    const details = options.details ?? {};
    const detailLines = Object.entries(details).map(([k, v]) => `  ${k}: ${formatDetail(v)}`);
    super([`[${code}] ${shortMessage}`, ...detailLines].join("\n"), { cause: options.cause });
    this.code = code;
    this.shortMessage = shortMessage;
    this.details = details;
  }
}

function formatDetail(value: unknown): string {
  if (typeof value === "bigint") return `${value.toString()}n`;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "string") return value;
  try {
    return (
      JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? `${v.toString()}n` : v)) ?? String(value)
    );
  } catch {
    return String(value);
  }
}

/** True when `error` is a swapintent error, optionally with the given code. */
export function isSwapIntentError<TCode extends string = string>(
  error: unknown,
  code?: TCode,
): error is BaseError<TCode> {
  return error instanceof BaseError && (code === undefined || error.code === code);
}
