import { BaseError } from "@swapintent/client";
import type { Permit2ErrorCode } from "../errors.js";
import { escapeUnsafeText } from "./unsafeText.js";

/**
 * Builds the package's typed error (internal helper so every throw site stays one line). Details often hold
 * service values: their control, bidi and invisible characters are escaped, so neither `details` nor `message`
 * can print a forged line.
 */
export function createPermit2Error(
  code: Permit2ErrorCode,
  shortMessage: string,
  details: Record<string, unknown> = {},
  cause?: unknown,
): BaseError<Permit2ErrorCode> {
  return new BaseError(code, shortMessage, {
    details: escapeUnsafeText(details) as Record<string, unknown>,
    cause,
  });
}
