import { type Permit2ErrorCode, permit2ErrorCodes } from "../src/errors.js";

/** Every `Permit2ErrorCode` at runtime, from the package's exact list (the compiler keeps it equal to the union). */
export const PERMIT2_ERROR_CODES = Object.keys(permit2ErrorCodes) as Permit2ErrorCode[];
