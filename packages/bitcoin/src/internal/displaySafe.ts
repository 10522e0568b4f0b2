// Internal: how a string the service chose may appear in anything a wallet could display (error details).

import { UNSAFE_DISPLAY_CHARACTERS } from "@swapintent/client/internal";

/**
 * The class every swapintent package refuses to display (`UNSAFE_DISPLAY_CHARACTERS`): C0/C1 controls, line and
 * paragraph separators, format characters (bidi embeddings/overrides/isolates/marks, zero-width characters, tags)
 * and every default-ignorable code point (Hangul fillers, the combining grapheme joiner, variation selectors) and
 * the braille blank: each could fake a line break, or reorder or hide text on a confirmation screen.
 */
const UNSAFE = new RegExp(`[${UNSAFE_DISPLAY_CHARACTERS}]`, "gu");

/** `value` with every control, bidi, zero-width or other invisible character written as `\u{…}`; non-strings as JSON. */
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
