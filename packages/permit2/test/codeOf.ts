import { isSwapIntentError } from "@swapintent/client";

/** The code of the swapintent error `run` throws; fails the test when it passes or throws anything else. */
export function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isSwapIntentError(error)) return error.code;
    throw error;
  }
  throw new Error("expected a refusal, but the call passed");
}
