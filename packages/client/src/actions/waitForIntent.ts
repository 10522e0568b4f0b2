import type { BaseClient } from "../client/types.js";
import { type ClientError, clientError, type RequestError } from "../errors/codes.js";
import type { SwapStatus } from "../types.js";
import { type WatchIntentParameters, watchIntent } from "./watchIntent.js";

/** Parameters of {@link waitForIntent}. */
export interface WaitForIntentParameters extends WatchIntentParameters {
  /**
   * Called once per status change, including the first status seen; awaited before the next poll (an async
   * callback may return its promise). A throw or a rejection ends the wait with that error.
   */
  onStatusChange?: ((status: SwapStatus) => void) | undefined;
}

/** What {@link waitForIntent} returns (awaited). */
export type WaitForIntentReturnType = SwapStatus;

/** The errors {@link waitForIntent} can throw. */
export type WaitForIntentErrorType = RequestError | ClientError<"WAIT_TIMEOUT">;

/**
 * Polls until the intent reaches a terminal status (Fulfilled, Declined, Expired, Refunded) and returns that record.
 * A terminal status is a result, not an error: check `status` (only `Fulfilled` delivered the tokens).
 *
 * @throws `WAIT_TIMEOUT` after `timeoutMs`; `ABORTED` when `signal` fires; any error of `getIntentStatus`
 *   that survived its retries.
 * @example const final = await waitForIntent(client, { intentId, timeoutMs: 600_000, onStatusChange: (s) => log(s.status) });
 */
export async function waitForIntent(
  client: BaseClient,
  parameters: WaitForIntentParameters,
): Promise<WaitForIntentReturnType> {
  const { onStatusChange, ...watch } = parameters;
  let last: SwapStatus | undefined;
  for await (const status of watchIntent(client, watch)) {
    last = status;
    // awaited: an async callback's rejection fails the wait as a throw does, never unhandled
    await onStatusChange?.(status);
  }
  if (!last)
    throw clientError("WAIT_TIMEOUT", {
      intentId: parameters.intentId,
    });
  return last;
}
