import type { ClientError } from "../errors/codes.js";
import { invalidInput } from "../internal/invalidInput.js";
import { formatLots } from "./formatLots.js";

/** Parameters of {@link formatAmount}. */
export interface FormatAmountParameters {
  /** Amount in lots. */
  value: bigint;
  decimals: number;
  /** Keep at most this many fractional digits, cutting toward zero (never rounding up). Default: all. */
  maxFractionDigits?: number | undefined;
  /** Pad to at least this many fractional digits. Default 0. */
  minFractionDigits?: number | undefined;
  /** Inserted between groups of three integer digits. Default `","`; `""` for none. */
  groupSeparator?: string | undefined;
  /** Default `"."`. */
  decimalSeparator?: string | undefined;
}

/** What {@link formatAmount} returns. */
export type FormatAmountReturnType = string;

/** The errors {@link formatAmount} can throw. */
export type FormatAmountErrorType = ClientError<"INVALID_INPUT">;

/**
 * Formats lots for display, exactly (no floating point): digit grouping, trailing zeros trimmed, optional
 * truncation. `formatAmount({ value: 1234567890000n, decimals: 6, maxFractionDigits: 2 })` is `"1,234,567.89"`.
 * Truncation cuts toward zero, so a shown balance is never more than the real one.
 *
 * @example
 * formatAmount({ value: quote.minDestAmountLots, decimals: quote.destAmountDecimals, maxFractionDigits: 4 }); // "1,234.5678"
 */
export function formatAmount({
  value,
  decimals,
  maxFractionDigits,
  minFractionDigits = 0,
  groupSeparator = ",",
  decimalSeparator = ".",
}: FormatAmountParameters): FormatAmountReturnType {
  if (maxFractionDigits !== undefined && (!Number.isInteger(maxFractionDigits) || maxFractionDigits < 0)) {
    throw invalidInput("maxFractionDigits", "must be an integer >= 0", maxFractionDigits);
  }
  if (!Number.isInteger(minFractionDigits) || minFractionDigits < 0) {
    throw invalidInput("minFractionDigits", "must be an integer >= 0", minFractionDigits);
  }
  const plain = formatLots({ value, decimals });
  const negative = plain.startsWith("-");
  const [whole = "0", rawFraction = ""] = (negative ? plain.slice(1) : plain).split(".");
  let fraction = maxFractionDigits === undefined ? rawFraction : rawFraction.slice(0, maxFractionDigits);
  fraction = fraction.replace(/(?<!0)0+$/, "").padEnd(minFractionDigits, "0");
  // the first group holds 1 to 3 digits, every later one 3: one pass (a lookahead for the remaining triples at every
  // digit is quadratic); a callback, so a `$` in the separator is not a replacement pattern
  const head = whole.length % 3 || 3;
  const grouped =
    whole.slice(0, head) + whole.slice(head).replace(/\d{3}/g, (triple) => groupSeparator + triple);
  const isZero = /^0*$/.test(whole) && /^0*$/.test(fraction);
  return `${negative && !isZero ? "-" : ""}${grouped}${fraction ? `${decimalSeparator}${fraction}` : ""}`;
}
