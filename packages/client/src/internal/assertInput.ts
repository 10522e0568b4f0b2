import { invalidInput } from "./invalidInput.js";

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Throws `INVALID_INPUT` naming `field` unless `value` is a string matching `pattern`; `reason` says what it must be. */
export function assertPattern(
  value: unknown,
  pattern: RegExp,
  field: string,
  reason: string,
): asserts value is string {
  if (typeof value !== "string" || !pattern.test(value)) throw invalidInput(field, reason, value);
}

/** Throws `INVALID_INPUT` naming `field` unless `value` is a UUID string. */
export function assertUuid(value: unknown, field: string): asserts value is string {
  assertPattern(value, uuidPattern, field, "must be a UUID");
}

/** Throws `INVALID_INPUT` naming `field` unless `value` is a non-empty string. */
export function assertNonEmptyString(value: unknown, field: string): asserts value is string {
  if (typeof value !== "string" || value.trim() === "")
    throw invalidInput(field, "must be a non-empty string", value);
}

/** The longest delay a timer keeps (2^31 - 1 ms, about 24.8 days); a longer one fires at once. */
export const maxTimerMs = 2 ** 31 - 1;

/**
 * Throws `code` (`INVALID_INPUT`, or `INVALID_OPTIONS` for a client option) naming `field` unless `value` is an
 * integer in `[min, max]` (by default, a safe integer >= 0).
 */
export function assertInteger(
  value: unknown,
  field: string,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
  code: "INVALID_INPUT" | "INVALID_OPTIONS" = "INVALID_INPUT",
): asserts value is number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min || value > max) {
    throw invalidInput(field, `must be an integer from ${min} to ${max}`, value, code);
  }
}

/** Slippage in basis points as the wire wants it: an integer string 0..10000, from a number, bigint or string. */
export function normalizeSlippageBps(value: unknown, field: string): string {
  // every integer up to 2^53 is exact as a number, and a longer digit string is far above 10000 either way
  const bps =
    typeof value === "bigint" || (typeof value === "string" && /^[0-9]+$/.test(value))
      ? Number(value)
      : value;
  if (typeof bps !== "number" || !Number.isSafeInteger(bps) || bps < 0 || bps > 10_000) {
    throw invalidInput(field, "must be an integer from 0 to 10000", value);
  }
  return String(bps);
}

/**
 * A human-unit amount as JSON number text, without going through floating point for strings:
 * `"0010.500"` becomes `10.5`; a `number` is written as JavaScript writes it. Must be finite and > 0.
 */
export function normalizeAmount(value: unknown, field: string): string {
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value <= 0)
      throw invalidInput(field, "must be a finite number > 0", value);
    return JSON.stringify(value);
  }
  const match = /^([0-9]+)(?:\.([0-9]+))?$/.exec(typeof value === "string" ? value.trim() : "");
  if (!match) throw invalidInput(field, "must be a decimal string such as `1.5`, or a number", value);
  const whole = (match[1] ?? "").replace(/^0+(?=[0-9])/, "");
  // `(?<!0)`: linear where a plain `0+$` is quadratic on "1.0…01" (see parseLots)
  const fraction = (match[2] ?? "").replace(/(?<!0)0+$/, "");
  if (/^0*$/.test(whole) && fraction === "") throw invalidInput(field, "must be greater than 0", value);
  return fraction === "" ? whole : `${whole}.${fraction}`;
}
