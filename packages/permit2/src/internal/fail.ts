import { BaseError } from "@swapintent/client";
import type { Permit2ErrorCode } from "../errors.js";

/** Builds the package's typed error (internal helper so every throw site stays one line). */
export function createPermit2Error(
  code: Permit2ErrorCode,
  shortMessage: string,
  details: Record<string, unknown> = {},
  cause?: unknown,
): BaseError<Permit2ErrorCode> {
  return new BaseError(code, shortMessage, { details, cause });
}
