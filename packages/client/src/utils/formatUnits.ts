import { assertDecimals } from "../internal/assertDecimals.js";
import { invalidInput } from "../internal/invalidInput.js";

/**
 * Converts lots to a plain decimal string, exactly, with trailing fractional zeros trimmed:
 * `formatUnits({ value: 1500000n, decimals: 6 })` is `"1.5"`. The inverse of `parseUnits`.
 *
 * @example
 * formatUnits({ value: 1500000n, decimals: 6 }); // "1.5"
 */
export function formatUnits({ value, decimals }: { value: bigint; decimals: number }): string {
  if (typeof value !== "bigint") throw invalidInput("value", "must be a bigint", value);
  assertDecimals(decimals);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}
