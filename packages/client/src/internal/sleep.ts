import { type ClientError, createClientError } from "../errors/codes.js";

/** Waits `ms`; rejects with `ABORTED` as soon as `signal` fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortedError(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The `ABORTED` error for a fired signal. */
export function abortedError(signal: AbortSignal): ClientError<"ABORTED"> {
  return createClientError("ABORTED", "The call was aborted.", {}, signal.reason);
}
