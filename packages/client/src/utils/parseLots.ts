import type { ClientError } from "../errors/codes.js";
import { assertDecimals } from "../internal/assertDecimals.js";
import { invalidInput } from "../internal/invalidInput.js";

/** Parameters of {@link parseLots}. */
export interface ParseLotsParameters {
  /** A decimal string such as `"1.5"`, `"-0.25"` or `"1000"`. No exponent, no grouping. */
  value: string;
  /** The token's decimals, 0..255. */
  decimals: number;
}

/** What {@link parseLots} returns. */
export type ParseLotsReturnType = bigint;

/** The errors {@link parseLots} can throw. */
export type ParseLotsErrorType = ClientError<"INVALID_INPUT">;

/**
 * Converts a decimal string to lots, exactly: `parseLots({ value: "1.5", decimals: 6 })` is `1500000n`.
 * More fractional digits than `decimals` are refused (`INVALID_INPUT`), never rounded, unless they are zeros.
 *
 * @example
 * parseLots({ value: "1.5", decimals: 6 }); // 1500000n
 */
export function parseLots({ value, decimals }: ParseLotsParameters): ParseLotsReturnType {
  assertDecimals(decimals);
  const match = typeof value === "string" ? /^(-)?([0-9]*)(?:\.([0-9]*))?$/.exec(value.trim()) : null;
  if (!match || ((match[2] ?? "") === "" && (match[3] ?? "") === "")) {
    throw invalidInput("value", "must be a decimal string such as `1.5`", value);
  }
  const [, sign, whole = "", rawFraction = ""] = match;
  // trailing zeros from the first one only (`(?<!0)`): a plain `0+$` retries from every zero of "1.0…01", which
  // is quadratic (a pasted 100 000-digit value took 8.5 s)
  const fraction = rawFraction.replace(/(?<!0)0+$/, "");
  if (fraction.length > decimals) {
    throw invalidInput("value", `has more fractional digits than the token's ${decimals} decimals`, value);
  }
  const lots = BigInt((whole || "0") + fraction.padEnd(decimals, "0"));
  return sign ? -lots : lots;
}

/** @deprecated Use ParseLotsParameters. */
export type ParseUnitsParameters = ParseLotsParameters;
/** @deprecated Use ParseLotsReturnType. */
export type ParseUnitsReturnType = ParseLotsReturnType;
/** @deprecated Use ParseLotsErrorType. */
export type ParseUnitsErrorType = ParseLotsErrorType;
/**
 * @deprecated Use parseLots (same function, same object parameter; this name collides with viem's `parseUnits`).
 *
 * @example
 * parseUnits({ value: "1.5", decimals: 6 }); // 1500000n; prefer parseLots
 */
export const parseUnits: typeof parseLots = parseLots;
