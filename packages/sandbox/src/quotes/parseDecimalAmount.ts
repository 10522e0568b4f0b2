/** Why a decimal amount was refused. */
export type DecimalAmountProblem = "NOT_A_NUMBER" | "NOT_POSITIVE" | "TOO_MANY_DECIMALS" | "TOO_LARGE";

/** The result of {@link parseDecimalAmount}: lots, or the reason the text was refused. */
export type DecimalAmountResult = { ok: true; lots: bigint } | { ok: false; problem: DecimalAmountProblem };

const DECIMAL = /^(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** No amount on the wire needs more than 78 digits (2^256); a cheap bound before any BigInt is built. */
const MAX_DIGITS = 78;

/** The largest amount of any token, in lots: 2^256-1 (EVM's uint256; no chain's amount type holds more). */
export const MAX_LOTS = 2n ** 256n - 1n;

/**
 * Convert a human-unit decimal (the JSON number text, or a decimal string) into integer lots of a token with
 * `decimals` decimals, exactly (no floating point). Exponent notation is accepted (`1e-6`), a sign is not.
 * Refuses zero, more fractional digits than `decimals` (after removing trailing zeros) and more than
 * {@link MAX_LOTS} lots.
 *
 * @example parseDecimalAmount({ text: "1.5", decimals: 6 }) // { ok: true, lots: 1500000n }
 */
export function parseDecimalAmount({
  text,
  decimals,
}: {
  text: string;
  decimals: number;
}): DecimalAmountResult {
  if (text.startsWith("-")) return { ok: false, problem: "NOT_POSITIVE" };
  const match = DECIMAL.exec(text);
  if (!match) return { ok: false, problem: "NOT_A_NUMBER" };
  const intPart = match[1] ?? "0";
  const fracPart = match[2] ?? "";
  const exponentText = match[3] ?? "0";
  if (exponentText.replace(/^[+-]/, "").length > 4) return { ok: false, problem: "TOO_LARGE" };
  const exponent = Number(exponentText);
  // value = digits * 10^(exponent - fracPart.length)
  let digits = (intPart + fracPart).replace(/^0+/, "");
  let scale = exponent - fracPart.length;
  if (digits === "") return { ok: false, problem: "NOT_POSITIVE" };
  while (digits.endsWith("0")) {
    digits = digits.slice(0, -1);
    scale++;
  }
  if (-scale > decimals) return { ok: false, problem: "TOO_MANY_DECIMALS" };
  const shift = scale + decimals;
  if (digits.length + shift > MAX_DIGITS) return { ok: false, problem: "TOO_LARGE" };
  const lots = BigInt(digits) * 10n ** BigInt(shift);
  return lots > MAX_LOTS ? { ok: false, problem: "TOO_LARGE" } : { ok: true, lots };
}
