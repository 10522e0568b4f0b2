import { BaseError } from "@swapintent/client";
import type { Permit2Error, Permit2ErrorCode } from "../errors.js";
import { escapeUnsafeText } from "./unsafeText.js";

/**
 * Builds the package's typed error (internal helper so every throw site stays one line); the
 * compiler checks `code` against {@link Permit2ErrorCode}, so a misspelt code does not build. Details often hold
 * service values: their control, bidi and invisible characters are escaped, so neither `details` nor `message`
 * can print a forged line.
 */
export function createPermit2Error<TCode extends Permit2ErrorCode>(
  code: TCode,
  shortMessage: string,
  details: Record<string, unknown> = {},
  cause?: unknown,
): Permit2Error<TCode> {
  return new BaseError(code, shortMessage, {
    details: escapeUnsafeText(details) as Record<string, unknown>,
    cause,
  });
}
