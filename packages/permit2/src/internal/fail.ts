import { SwapIntentError } from "@swapintent/client";
import type { Permit2Error, Permit2ErrorCode, Permit2ErrorDetails } from "../errors.js";
import { escapeUnsafeText } from "./unsafeText.js";

/**
 * Every error this copy of the package created by {@link createPermit2Error}: only these pass a wallet step as they
 * are. `isPermit2Error` accepts an error by its shape (another copy's), so a wallet could throw any permit2 code;
 * it cannot throw one of these.
 */
export const ownErrors = new WeakSet<object>();

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
  let error: SwapIntentError;
  try {
    error = new SwapIntentError(code, shortMessage, { details: escapeUnsafeText(details) as never, cause });
  } catch {
    // A wallet's value in the details that cannot be walked or printed (a revoked Proxy, a throwing getter, toJSON
    // or toString): the refusal keeps its code, and such values read "[unreadable]".
    const readable: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(details))
      readable[key] = Object(value) === value ? "[unreadable]" : escapeUnsafeText(value);
    error = new SwapIntentError(code, shortMessage, { details: readable, cause });
  }
  ownErrors.add(error);
  return error as unknown as Permit2Error<TCode>;
}
