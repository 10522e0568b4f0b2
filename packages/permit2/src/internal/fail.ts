import { BaseError } from "@swapintent/client";
import type { Permit2Error, Permit2ErrorCode, Permit2ErrorDetails } from "../errors.js";
import { escapeUnsafeText } from "./unsafeText.js";

/**
 * Builds the package's typed error (internal helper so every throw site stays one line); the compiler checks
 * `code` against {@link Permit2ErrorCode} and `details` against that code's entry of {@link Permit2ErrorDetails}, so
 * a misspelt code or a missing fact does not build. Details often hold service values: their control, bidi and
 * invisible characters are escaped, so neither `details` nor `message` can print a forged line.
 */
export function createPermit2Error<TCode extends Permit2ErrorCode>(
  code: TCode,
  shortMessage: string,
  details: Permit2ErrorDetails[TCode],
  cause?: unknown,
): Permit2Error<TCode> {
  return new BaseError(code, shortMessage, {
    details: escapeUnsafeText(details) as Permit2ErrorDetails[TCode],
    cause,
  }) as unknown as Permit2Error<TCode>;
}
