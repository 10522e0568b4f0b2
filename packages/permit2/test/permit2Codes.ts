import { permit2ErrorCodes } from "../src/errors.js";

/**
 * Every `Permit2ErrorCode` at runtime, from the package's own complete list (`src/errors.ts`, where the compiler
 * refuses a missing or unknown code).
 */
export const PERMIT2_ERROR_CODES = permit2ErrorCodes;
