import { invalidInput } from "./invalidInput.js";

/** Throws `INVALID_INPUT` unless `decimals` is an integer 0..255. */
export function assertDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) {
    throw invalidInput("decimals", "must be an integer from 0 to 255", decimals);
  }
}
