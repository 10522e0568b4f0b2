import { BaseError } from "@swapintent/client";
import type { Permit2Error, Permit2ErrorCode, Permit2ErrorDetails } from "../errors.js";
import { escapeUnsafeText } from "./unsafeText.js";

/**
 * Builds the package's typed error (internal helper so every throw site stays one line); the compiler checks
 * `code` against {@link Permit2ErrorCode} and `details` against that code's entry of {@link Permit2ErrorDetails}, so
 * a misspelt code or a missing fact does not build. Details often hold service values: their control, bidi and
 * invisible characters are escaped, so neither `details` nor `message` can print a forged line.
 */
/** Every error this copy of the package created: only these pass a wallet step as they are (see {@link isOwnError}). */
const own = new WeakSet<object>();

/**
 * Whether `error` was created here by {@link createPermit2Error}, not merely shaped like one: a wallet can throw an
 * object with any swapintent code (`isPermit2Error` accepts a copy's errors by shape), never one of these.
 */
export function isOwnError(error: unknown): boolean {
  return own.has(error as object);
}

export function createPermit2Error<TCode extends Permit2ErrorCode>(
  code: TCode,
  shortMessage: string,
  details: Permit2ErrorDetails[TCode],
  cause?: unknown,
): Permit2Error<TCode> {
  const error = new BaseError(code, shortMessage, {
    details: escapeUnsafeText(details) as Permit2ErrorDetails[TCode],
    cause,
  });
  own.add(error);
  return error as unknown as Permit2Error<TCode>;
}
