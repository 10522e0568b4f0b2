// Internal: how a string the service chose may appear in anything a wallet could display (error details).

/**
 * C0/C1 controls, line and paragraph separators, bidi embeddings/overrides/isolates/marks and zero-width
 * characters: each could fake a line break or reorder or hide text on a confirmation screen.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/gu;

/** `value` with every control, bidi and zero-width character written as `\u{…}`; non-strings as JSON. */
export function escapeForDisplay(value: unknown): string {
  let text: string;
  if (typeof value === "string") text = value;
  else {
    try {
      text =
        JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v)) ??
        String(value);
    } catch {
      text = Object.prototype.toString.call(value);
    }
  }
  // cut first (the same result): escaping all of 8 MB of bidi characters took seconds
  const escaped = text.slice(0, 201).replace(UNSAFE, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
  return escaped.length > 200 ? `${escaped.slice(0, 200)}…` : escaped;
}
