import { createPermit2Error } from "./fail.js";
import { UNSAFE_TEXT } from "./unsafeText.js";

/** The longest service string shown or signed as text (addresses and token ids are far shorter). */
export const MAX_DISPLAY_TEXT_LENGTH = 256;

/**
 * Refuses a service string that would reach the signed typed data or the summary when it holds a character that
 * can forge or hide text (see `UNSAFE_TEXT`), is empty, or is longer than {@link MAX_DISPLAY_TEXT_LENGTH}. The
 * error's details carry the value with those characters escaped (every permit2 error does, see `createPermit2Error`).
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
    { field, value: value.slice(0, MAX_DISPLAY_TEXT_LENGTH) },
  );
}
