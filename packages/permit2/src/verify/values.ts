/** The largest uint256: Permit2's amounts, nonces and deadlines are uint256 on chain. */
export const MAX_UINT256 = 2n ** 256n - 1n;

/** A plain object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A uint256 as a bigint, a safe non-negative integer or a decimal string; null otherwise. */
export function parseUint(value: unknown): bigint | null {
  if (typeof value === "bigint") return value >= 0n && value <= MAX_UINT256 ? value : null;
  if (typeof value === "number") return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : null;
  if (typeof value === "string" && /^(0|[1-9][0-9]{0,77})$/.test(value)) {
    const parsed = BigInt(value);
    return parsed <= MAX_UINT256 ? parsed : null;
  }
  return null;
}

/** An integer 0..255 (token decimals). */
export function isDecimals(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 255;
}

/** A bigint from `least` to the largest uint256. */
export function isUint256(value: unknown, least: bigint): value is bigint {
  return typeof value === "bigint" && value >= least && value <= MAX_UINT256;
}
