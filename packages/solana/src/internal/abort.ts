/**
 * The caller's `AbortSignal`, read so that a hostile or broken signal cannot break a signing flow: a signal whose
 * `aborted` getter throws (or answers anything but `false`) counts as aborted, a listener is attached only while the
 * wallet is asked and removed once that question settles, and whatever the wallet answers after the abort is never
 * used (its late rejection is handled, never unhandled).
 */
import { solanaError } from "../errors.js";

/** The signal's state: not aborted, or aborted with the reason to report as the error's `cause`. */
export type AbortState = { aborted: false } | { aborted: true; reason: unknown };

/** Whether `value` can be watched as an `AbortSignal` (duck-typed, so a signal of another realm passes). */
export function isSignalLike(value: unknown): value is AbortSignal {
  try {
    const candidate = value as Partial<AbortSignal> | null;
    return (
      typeof candidate === "object" &&
      candidate !== null &&
      typeof candidate.addEventListener === "function" &&
      typeof candidate.removeEventListener === "function"
    );
  } catch {
    return false;
  }
}

/** Reads `signal.aborted` and `signal.reason`; a read that throws counts as aborted, with the thrown value as reason. */
export function readAbort(signal: AbortSignal | undefined): AbortState {
  if (signal === undefined) return { aborted: false };
  try {
    if (signal.aborted === false) return { aborted: false };
    return { aborted: true, reason: signal.reason };
  } catch (thrown) {
    return { aborted: true, reason: thrown };
  }
}

/**
 * `run()`'s answer, or `abortError(reason, asked)` as soon as `signal` aborts (also when `run` itself aborts it, or
 * the signal reads as aborted once the answer is in): the answer after that is never returned and its rejection is
 * absorbed. `asked` says whether `run` was called (a signal that cannot be listened to, or aborts while it is, never
 * lets it be). The listener is removed when the race settles, so one long-lived signal collects none.
 */
export function raceAbort<T>(
  signal: AbortSignal | undefined,
  run: () => Promise<T> | T,
  abortError: (reason: unknown, asked: boolean) => Error,
): Promise<T> {
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
    const onAbort = () => finish(() => reject(abortError(reasonOf(signal), asked)));
    function finish(settle: () => void) {
      if (settled) return;
      settled = true;
      try {
        signal!.removeEventListener("abort", onAbort);
      } catch {
        // A signal that cannot remove its listener keeps a settled no-op; nothing else to do.
      }
      settle();
    }
    try {
      signal.addEventListener("abort", onAbort);
    } catch (thrown) {
      // A signal that cannot be watched cannot stop a hanging wallet: refused before the wallet is asked.
      finish(() => reject(abortError(thrown, false)));
      return;
    }
    // A signal may fire its listener while it is being added: then the wallet is never asked.
    if (settled) return;
    const before = readAbort(signal);
    if (before.aborted) return finish(() => reject(abortError(before.reason, false)));
    let work: Promise<T>;
    asked = true;
    try {
      work = Promise.resolve(run());
    } catch (error) {
      finish(() => reject(error));
      return;
    }
    work.then(
      (value) =>
        finish(() => {
          const after = readAbort(signal);
          if (after.aborted) reject(abortError(after.reason, true));
          else resolve(value);
        }),
      (error: unknown) => finish(() => reject(error)),
    );
  });
}

function reasonOf(signal: AbortSignal): unknown {
  const state = readAbort(signal);
  return state.aborted ? state.reason : undefined;
}

/**
 * Refuses a `signal` that is no `AbortSignal` (`SOL_INVALID_PARAMETERS`, parameter `signal`), then one already
 * aborted (`SOL_SIGNING_ABORTED`, stage `beforeSigning`): run before any wallet or key is touched.
 */
export function checkSignal(signal: unknown): asserts signal is AbortSignal | undefined {
  if (signal !== undefined && !isSignalLike(signal))
    throw solanaError("SOL_INVALID_PARAMETERS", "signal is not an AbortSignal.", { parameter: "signal" });
  throwIfAborted(signal, "beforeSigning");
}

/** `SOL_SIGNING_ABORTED` (cause: the signal's reason) when `signal` has aborted. */
export function throwIfAborted(
  signal: AbortSignal | undefined,
  stage: "beforeSigning" | "whileSigning",
): void {
  const state = readAbort(signal);
  if (state.aborted) throw abortedError(stage, state.reason);
}

/**
 * The wallet's or signer's answer, or `SOL_SIGNING_ABORTED` as soon as `signal` aborts: stage `whileSigning` once
 * the wallet was asked, `beforeSigning` when the signal cannot be listened to or aborts while it is (never asked).
 * Whatever the wallet throws or rejects with (the user's "reject", a crash, even an error of this package's own
 * shape) is `SOL_SIGNING_FAILED` naming `source`, the thrown value as `cause`.
 */
export function askUntilAborted<T>(
  signal: AbortSignal | undefined,
  source: string,
  run: () => Promise<T> | T,
): Promise<T> {
  let aborted: Error | undefined;
  return raceAbort(
    signal,
    run,
    (reason, asked) => (aborted = abortedError(asked ? "whileSigning" : "beforeSigning", reason)),
  ).catch((error: unknown) => {
    // The abort's own error, by identity (a wallet rejecting with `undefined` is a refusal, not the abort).
    if (aborted && error === aborted) throw error;
    throw solanaError("SOL_SIGNING_FAILED", `The ${source} refused or failed to sign.`, { source }, error);
  });
}

function abortedError(stage: "beforeSigning" | "whileSigning", reason: unknown) {
  return solanaError("SOL_SIGNING_ABORTED", "Signing was aborted by the caller's signal.", { stage }, reason);
}
