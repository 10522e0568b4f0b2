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
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let asked = false;
    /** Throws the abort error when the signal reads as aborted (`finish` turns the throw into the rejection). */
    const check = () => {
      const state = readAbortSignal({ signal });
      if (state.aborted) throw abortError({ reason: state.reason, asked });
    };
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      try {
        signal?.removeEventListener("abort", onAbort);
      } catch {
        // A signal that cannot remove its listener keeps a settled no-op; nothing else to do.
      }
      try {
        settle();
      } catch (error) {
        reject(error);
      }
    };
    // An abort event is an abort even when the signal does not read as aborted (its reason is then unknown).
    const onAbort = () =>
      finish(() => {
        check();
        reject(abortError({ reason: undefined, asked }));
      });
    try {
      // Without a signal there is nothing to listen to: `run` is simply called.
      signal?.addEventListener("abort", onAbort);
    } catch (thrown) {
      // A signal that cannot be listened to cannot stop a hanging wallet: refused before the wallet is asked.
      return finish(() => reject(abortError({ reason: thrown, asked })));
    }
    // A signal may fire its listener while it is being added: then the wallet is never asked.
    if (settled) return;
    try {
      check();
    } catch (error) {
      return finish(() => reject(error));
    }
    asked = true;
    const settleUnlessAborted = (settle: () => void) =>
      finish(() => {
        check();
        settle();
      });
    let work: Promise<T>;
    try {
      work = Promise.resolve(run());
    } catch (error) {
      return settleUnlessAborted(() => reject(error));
    }
    work.then(
      (value) => settleUnlessAborted(() => resolve(value)),
      (error: unknown) => settleUnlessAborted(() => reject(error)),
    );
  });
}
