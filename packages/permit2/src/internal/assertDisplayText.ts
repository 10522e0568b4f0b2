import { createPermit2Error } from "./fail.js";

/** The longest service string shown or signed as text (addresses and token ids are far shorter). */
export const MAX_DISPLAY_TEXT_LENGTH = 256;

/**
 * Characters that can forge or hide text on a confirmation screen: controls (C0, DEL, C1: line breaks, tabs,
 * escapes), format characters (bidi overrides and isolates, zero-width space/joiners, word joiner, BOM, soft
 * hyphen, tag characters), line and paragraph separators, surrogates, private-use and unassigned code points,
 * and the Hangul fillers and braille blank that render as nothing.
 */
const UNSAFE_TEXT = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}\u115F\u1160\u2800\u3164\uFFA0]/u;

/**
 * Refuses a service string that would reach the signed typed data or the summary when it holds a character that
 * can forge or hide text, is empty, or is longer than {@link MAX_DISPLAY_TEXT_LENGTH}. The value is never echoed
 * raw: `details` holds its escaped form.
 */
export function assertDisplayText(value: string, field: string): void {
  const match = UNSAFE_TEXT.exec(value);
  if (match === null && value.length > 0 && value.length <= MAX_DISPLAY_TEXT_LENGTH) return;
  const codePoint = match?.[0].codePointAt(0);
  throw createPermit2Error(
    "PERMIT2_TEXT_UNSAFE",
    match !== null
      ? `${field} holds a control, bidi or invisible character (U+${codePoint!.toString(16).toUpperCase().padStart(4, "0")}).`
      : `${field} is empty or longer than ${MAX_DISPLAY_TEXT_LENGTH} characters.`,
    {
      field,
      escaped: JSON.stringify(value.slice(0, MAX_DISPLAY_TEXT_LENGTH)).replace(/[^\x20-\x7e]/g, escapeChar),
    },
  );
}

function escapeChar(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}
