/**
 * Milliseconds to wait from a `Retry-After` header: delay seconds (decimals tolerated) or an HTTP date
 * (a past date gives 0). `undefined` when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^[0-9]+(\.[0-9]+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
