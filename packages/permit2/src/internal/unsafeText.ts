import { UNSAFE_DISPLAY_CHARACTERS } from "@swapintent/client/internal";

/**
 * Characters that can forge or hide text on a screen: the class every swapintent package refuses
 * (`UNSAFE_DISPLAY_CHARACTERS`: controls, format characters, line and paragraph separators, every default-ignorable
 * code point such as Hangul fillers, the combining grapheme joiner and variation selectors, and the braille blank),
 * plus surrogates, private-use and unassigned code points.
 */
export const UNSAFE_TEXT = new RegExp(`[${UNSAFE_DISPLAY_CHARACTERS}\\p{Cs}\\p{Co}\\p{Cn}]`, "u");
/**
 * What error details escape: the unsafe characters, and every character outside the Basic Multilingual Plane.
 * `SwapIntentError` shortens a long detail in its message at a fixed length, which could cut a surrogate pair in two
 * and leave a lone surrogate in the message; escaped, no pair is left to cut.
 */
const ESCAPED_IN_DETAILS = new RegExp(`${UNSAFE_TEXT.source}|[\\u{10000}-\\u{10FFFF}]`, "gu");

/** The longest service string error details keep (the values a check compares are far shorter); longer ones are cut. */
const MAX_DETAIL_TEXT = 1024;

/**
 * `value` with every string inside it (arrays and plain objects walked) made safe to print: each character of
 * {@link UNSAFE_TEXT}, and each character outside the BMP, becomes `\u{…}`. Error details keep service values this way, so `error.message` (which
 * lists the details) cannot carry a forged line either.
 */
export function escapeUnsafeText(value: unknown, depth = 0): unknown {
  // cut before escaping: each escape is a callback and ~8 characters, so 8 MB of bidi characters took ~7 s
  if (typeof value === "string")
    return (value.length > MAX_DETAIL_TEXT ? `${value.slice(0, MAX_DETAIL_TEXT)}…` : value).replace(
      ESCAPED_IN_DETAILS,
      (char) => `\\u{${char.codePointAt(0)!.toString(16).toUpperCase()}}`,
    );
  if (depth > 4 || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => escapeUnsafeText(item, depth + 1));
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    Object.defineProperty(out, escapeUnsafeText(key) as string, {
      value: escapeUnsafeText(item, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}
