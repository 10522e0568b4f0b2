import { readAbortSignal } from "./readAbortSignal.js";

/** Parameters of {@link raceAbortSignal}. */
export interface RaceAbortSignalParameters<T> {
  /** The caller's signal; without one, `run` is simply called. */
  signal: AbortSignal | undefined;
  /** Asks the wallet or signer (called at most once, synchronously, and only while the signal is live). */
  run: () => Promise<T> | T;
  /**
   * The error to reject with once the signal aborted (each package builds its own coded error here). `reason`: the
   * signal's reason, or what its `aborted` read or its `addEventListener` threw. `asked`: whether `run` was called
   * (false for a signal that cannot be listened to, aborts while it is listened to, or reads as aborted once it is).
   */
  abortError: (parameters: { reason: unknown; asked: boolean }) => unknown;
}

/** What {@link raceAbortSignal} returns: `run`'s answer, unless the signal aborted first. */
export type RaceAbortSignalReturnType<T> = Promise<T>;

/** The errors {@link raceAbortSignal} can throw: what `abortError` returns, or what `run` throws or rejects with. */
export type RaceAbortSignalErrorType = unknown;

/**
 * `run()`'s answer, or `abortError(…)` as soon as `signal` aborts, so a wallet that never answers cannot hang the
 * caller. A hostile or broken signal cannot break it: an `aborted` read that throws counts as aborted, a signal whose
 * `addEventListener` throws, or that fires or reads as aborted while it is listened to, rejects without calling
 * `run`. Once the signal reads as aborted (by an event, or read after `run` answered or failed, also when `run`
 * aborted it itself), the answer is never returned and a late rejection is absorbed, never unhandled. The listener
 * is removed when the race settles, so one long-lived signal collects none.
 *
 * @example
 * const signature = await raceAbortSignal({
 *   signal,
 *   run: () => wallet.signTypedData(typedData),
 *   abortError: ({ reason, asked }) =>
 *     createMyError("MY_SIGNING_ABORTED", { stage: asked ? "whileSigning" : "beforeSigning" }, reason),
 * });
 */
export function raceAbortSignal<T>(parameters: RaceAbortSignalParameters<T>): RaceAbortSignalReturnType<T> {
  const { signal, run, abortError } = parameters;
  if (signal === undefined) {
    try {
      return Promise.resolve(run());
    } catch (error) {
      return Promise.reject(error);
    }
  }
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let asked = false;
    const aborted = (reason: unknown) => () => reject(abortError({ reason, asked }));
    /** The abort when the signal reads as aborted now, else `otherwise`. */
    const unlessAborted = (otherwise: () => void) => () => {
      const state = readAbortSignal({ signal });
      (state.aborted ? aborted(state.reason) : otherwise)();
    };
    // An abort event is an abort even when the signal does not read as aborted (its reason is then unknown).
    const onAbort = () => finish(unlessAborted(aborted(undefined)));
    function finish(settle: () => void) {
      if (settled) return;
      settled = true;
      try {
        signal!.removeEventListener("abort", onAbort);
      } catch {
        // A signal that cannot remove its listener keeps a settled no-op; nothing else to do.
      }
      try {
        settle();
      } catch (error) {
        reject(error);
      }
    }
    try {
      signal.addEventListener("abort", onAbort);
    } catch (thrown) {
      // A signal that cannot be listened to cannot stop a hanging wallet: refused before the wallet is asked.
      return finish(aborted(thrown));
    }
    // A signal may fire its listener while it is being added: then the wallet is never asked.
    if (settled) return;
    const before = readAbortSignal({ signal });
    if (before.aborted) return finish(aborted(before.reason));
    asked = true;
    let work: Promise<T>;
    try {
      work = Promise.resolve(run());
    } catch (error) {
      return finish(unlessAborted(() => reject(error)));
    }
    work.then(
      (value) => finish(unlessAborted(() => resolve(value))),
      (error: unknown) => finish(unlessAborted(() => reject(error))),
    );
  });
}
