import { UNSAFE_DISPLAY_CHARACTERS } from "@swapintent/client/internal";

/**
 * Characters a wallet must never display from a service string: C0/C1 controls (line breaks included), format
 * characters (bidi overrides and isolates, zero-width spaces and joiners, the byte-order mark, soft hyphen, tags),
 * the Unicode line and paragraph separators, every default-ignorable code point (Hangul fillers, the combining
 * grapheme joiner, variation selectors: letters and marks that render as nothing) and the blank braille pattern.
 * Any of them can make a displayed text read as something else, or hide a difference between two look-alikes.
 */
const UNSAFE = new RegExp(`[${UNSAFE_DISPLAY_CHARACTERS}]`, "u");

/** The first unsafe character of `text` as `U+XXXX` (for error details; the text itself is not repeated). */
export function firstUnsafeCodePoint(text: string): string | undefined {
  const match = UNSAFE.exec(text);
  return match === null
    ? undefined
    : `U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Longest service text an error detail repeats. */
const MAX_DETAIL = 120;

/**
 * A service string made safe to repeat in an error detail: every unsafe character written as `\u{XXXX}`, and
 * bounded to {@link MAX_DETAIL} characters. Non-strings are described by their type.
 */
export function escapeUnsafe(value: unknown): string {
  if (typeof value !== "string") return typeof value;
  // cut first (the same result): escaping all of 8 MB of bidi characters took seconds
  const escaped = value
    .slice(0, MAX_DETAIL + 1)
    .replace(new RegExp(UNSAFE.source, "gu"), (c) => `\\u{${c.codePointAt(0)!.toString(16).toUpperCase()}}`);
  return escaped.length > MAX_DETAIL ? `${escaped.slice(0, MAX_DETAIL)}…` : escaped;
}

/** Strict UTF-8: invalid sequences throw, and a leading byte-order mark is kept (not silently dropped). */
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The UTF-8 text of `bytes`, exactly (no BOM stripping, no replacement characters); undefined when not UTF-8. */
export function decodeUtf8Exact(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}
