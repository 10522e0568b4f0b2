import { type ClientError, clientError } from "../errors/codes.js";

/** Waits `ms`; rejects with `ABORTED` as soon as `signal` fires. */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) throw abortedError(signal);
  const wait = deadline(signal, ms);
  await new Promise((resolve) => wait.signal.addEventListener("abort", resolve, { once: true }));
  wait.done();
  if (!wait.timedOut()) throw abortedError(signal as AbortSignal);
}

/** The `ABORTED` error for a fired signal. */
export function abortedError(signal: AbortSignal): ClientError<"ABORTED"> {
  return clientError("ABORTED", {}, signal.reason);
}

/** What {@link deadline} returns: the combined signal, whether the time ran out, and the cleanup. */
export interface Deadline {
  signal: AbortSignal;
  timedOut: () => boolean;
  done: () => void;
}

/**
 * One signal that aborts when the caller's `signal` does or when `ms` pass (then `timedOut()` is true); `done()`
 * clears the timer and the listener. Without `ms`, only the caller's signal aborts it.
 */
export function deadline(signal: AbortSignal | undefined, ms: number | undefined): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const timer =
    ms === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, ms);
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done: () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    },
  };
}
