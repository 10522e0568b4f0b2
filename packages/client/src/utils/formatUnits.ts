import type { ClientError } from "../errors/codes.js";
import { assertDecimals } from "../internal/assertDecimals.js";
import { invalidInput } from "../internal/invalidInput.js";

/** Parameters of {@link formatUnits}. */
export interface FormatUnitsParameters {
  /** Amount in lots. */
  value: bigint;
  /** The token's decimals, 0..255. */
  decimals: number;
}

/** What {@link formatUnits} returns. */
export type FormatUnitsReturnType = string;

/** The errors {@link formatUnits} can throw. */
export type FormatUnitsErrorType = ClientError<"INVALID_INPUT">;

/**
 * Converts lots to a plain decimal string, exactly, with trailing fractional zeros trimmed:
 * `formatUnits({ value: 1500000n, decimals: 6 })` is `"1.5"`. The inverse of `parseUnits`.
 *
 * @example
 * formatUnits({ value: 1500000n, decimals: 6 }); // "1.5"
 */
export function formatUnits({ value, decimals }: FormatUnitsParameters): FormatUnitsReturnType {
  if (typeof value !== "bigint") throw invalidInput("value", "must be a bigint", value);
  assertDecimals(decimals);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/(?<!0)0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}
