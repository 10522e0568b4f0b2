import type { BaseClient } from "../client/types.js";
import { BaseError } from "../errors/baseError.js";
import type { SwapStatus } from "../types.js";
import { type WatchIntentParams, watchIntent } from "./watchIntent.js";

/** Parameters of {@link waitForIntent}. */
export interface WaitForIntentParams extends WatchIntentParams {
  /** Called once per status change, including the first status seen. */
  onStatusChange?: ((status: SwapStatus) => void) | undefined;
}

/**
 * Polls until the intent reaches a terminal status (Fulfilled, Declined, Expired, Refunded) and returns that record.
 * A terminal status is a result, not an error: check `status` (only `Fulfilled` delivered the tokens).
 *
 * @throws `WAIT_TIMEOUT` after `timeoutMs`; `ABORTED` when `signal` fires; any error of `getIntentStatus`
 *   that survived its retries.
 * @example const final = await waitForIntent(client, { intentId, timeoutMs: 600_000, onStatusChange: (s) => log(s.status) });
 */
export async function waitForIntent(client: BaseClient, params: WaitForIntentParams): Promise<SwapStatus> {
  const { onStatusChange, ...watch } = params;
  let last: SwapStatus | undefined;
  for await (const status of watchIntent(client, watch)) {
    last = status;
    onStatusChange?.(status);
  }
  if (!last)
    throw new BaseError("WAIT_TIMEOUT", "Watching ended without a status.", {
      details: { intentId: params.intentId },
    });
  return last;
}
