import type { ClientError } from "../errors/codes.js";
import { assertDecimals } from "../internal/assertDecimals.js";
import { invalidInput } from "../internal/invalidInput.js";

/** Parameters of {@link formatLots}. */
export interface FormatLotsParameters {
  /** Amount in lots. */
  value: bigint;
  /** The token's decimals, 0..255. */
  decimals: number;
}

/** What {@link formatLots} returns. */
export type FormatLotsReturnType = string;

/** The errors {@link formatLots} can throw. */
export type FormatLotsErrorType = ClientError<"INVALID_INPUT">;

/**
 * Converts lots to a plain decimal string, exactly, with trailing fractional zeros trimmed:
 * `formatLots({ value: 1500000n, decimals: 6 })` is `"1.5"`. The inverse of `parseLots`.
 *
 * @example
 * formatLots({ value: 1500000n, decimals: 6 }); // "1.5"
 */
export function formatLots({ value, decimals }: FormatLotsParameters): FormatLotsReturnType {
  if (typeof value !== "bigint") throw invalidInput("value", "must be a bigint", value);
  assertDecimals(decimals);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/(?<!0)0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/** @deprecated Use FormatLotsParameters. */
export type FormatUnitsParameters = FormatLotsParameters;
/** @deprecated Use FormatLotsReturnType. */
export type FormatUnitsReturnType = FormatLotsReturnType;
/** @deprecated Use FormatLotsErrorType. */
export type FormatUnitsErrorType = FormatLotsErrorType;
/**
 * @deprecated Use formatLots (same function, same object parameter; this name collides with viem's `formatUnits`).
 *
 * @example
 * formatUnits({ value: 1500000n, decimals: 6 }); // "1.5"; prefer formatLots
 */
export const formatUnits: typeof formatLots = formatLots;
