/**
 * Format integer lots as a human decimal string (no trailing zeros, no exponent).
 *
 * @example formatLots({ lots: 1500000n, decimals: 6 }) // "1.5"
 */
export function formatLots({ lots, decimals }: { lots: bigint; decimals: number }): string {
  const negative = lots < 0n;
  const abs = negative ? -lots : lots;
  const base = 10n ** BigInt(decimals);
  const whole = abs / base;
  const frac = (abs % base).toString().padStart(decimals, "0").replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${frac ? `.${frac}` : ""}`;
}
