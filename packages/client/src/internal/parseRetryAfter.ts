/**
 * Milliseconds to wait from a `Retry-After` header: delay seconds (decimals tolerated) or an HTTP date
 * (a past date gives 0). `undefined` when absent or unreadable (a negative number, `NaN`, `1e3`, a bare year).
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^[0-9]+(\.[0-9]+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  // an HTTP date starts with the day's name; `Date.parse` alone would take "-5" as a date
  if (!/^[a-z]{3}/i.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
