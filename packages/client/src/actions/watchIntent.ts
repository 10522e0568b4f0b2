import type { BaseClient } from "../client/types.js";
import { type ClientError, clientError, type RequestError } from "../errors/codes.js";
import { isSwapIntentError } from "../errors/swapIntentError.js";
import { assertInteger, assertUuid, maxTimerMs } from "../internal/assertInput.js";
import { abortedError, deadline, sleep } from "../internal/sleep.js";
import type { SwapStatus } from "../types.js";
import { isTerminalStatus } from "../utils/isTerminalStatus.js";
import { getIntentStatus } from "./getIntentStatus.js";

/** Parameters of {@link watchIntent}. */
export interface WatchIntentParameters {
  intentId: string;
  /** Delay between polls. Default 2000. */
  intervalMs?: number | undefined;
  /** Give up after this long with `WAIT_TIMEOUT`. Default: no limit. */
  timeoutMs?: number | undefined;
  /** Stops watching with `ABORTED`. */
  signal?: AbortSignal | undefined;
}

/** What {@link watchIntent} returns. */
export type WatchIntentReturnType = AsyncGenerator<SwapStatus>;

/** The errors {@link watchIntent} can throw. */
export type WatchIntentErrorType = RequestError | ClientError<"WAIT_TIMEOUT">;

/**
 * Polls an intent's status and yields the record each time the status changes (the first poll always yields),
 * so each status is seen once; it ends after yielding a terminal status (Fulfilled, Declined, Expired, Refunded).
 * Breaking out of the loop stops polling.
 *
 * @throws `WAIT_TIMEOUT` when `timeoutMs` passes first (details carry the last status: the service's spelling,
 *   or `"Unknown"` for a status this version does not know); `ABORTED` when `signal` fires.
 * @example for await (const s of watchIntent(client, { intentId })) console.log(s.status);
 */
export async function* watchIntent(
  client: BaseClient,
  parameters: WatchIntentParameters,
): WatchIntentReturnType {
  const { intentId, intervalMs = 2000, timeoutMs, signal } = parameters;
  assertUuid(intentId, "intentId");
  assertInteger(intervalMs, "intervalMs", 0, maxTimerMs);
  if (timeoutMs !== undefined) assertInteger(timeoutMs, "timeoutMs", 0, maxTimerMs);
  if (signal?.aborted) throw abortedError(signal);
  const timeout = deadline(signal, timeoutMs);
  let last: SwapStatus | undefined;
  try {
    for (;;) {
      const current = await getIntentStatus(client, { intentId, signal: timeout.signal });
      if (last === undefined || current.rawStatus !== last.rawStatus) {
        last = current;
        yield current;
      }
      if (isTerminalStatus(current)) return;
      await sleep(intervalMs, timeout.signal);
    }
  } catch (error) {
    if (timeout.timedOut() && isSwapIntentError(error, "ABORTED")) {
      // the service's spelling only when this version knows it: an unknown status is server text (unbounded,
      // possibly echoing a credential), and an error carries no server text the transport has not scrubbed
      throw clientError("WAIT_TIMEOUT", {
        intentId,
        timeoutMs,
        lastStatus: lastStatusOf(last),
      });
    }
    if (signal?.aborted && isSwapIntentError(error, "ABORTED")) throw abortedError(signal);
    throw error;
  } finally {
    timeout.done();
  }
}

/** The last status for `WAIT_TIMEOUT`: the wire spelling of a known status, `"Unknown"`, or `null` before any. */
function lastStatusOf(last: SwapStatus | undefined): string | null {
  if (last === undefined) return null;
  return last.status === "Unknown" ? "Unknown" : last.rawStatus;
}
