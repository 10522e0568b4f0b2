// Internal: the caller's `AbortSignal` (signHtlcPsbt's `signal`), read so that a hostile or broken signal cannot
// break signing: a read that throws counts as aborted (the thrown value is the reason), a listener fired while it is
// added means no key or wallet is asked, and the listener is removed once the question settles.
import { createBitcoinError } from "./errors.js";

type Stage = "beforeSigning" | "whileSigning";

/** `BTC_SIGNING_ABORTED` at `stage`; the signal's reason is its `cause`. */
function abortedError(stage: Stage, reason: unknown) {
  return createBitcoinError(
    "BTC_SIGNING_ABORTED",
    "Signing was aborted by the caller's signal.",
    { stage },
    reason,
  );
}

/** Throws `BTC_SIGNING_ABORTED` (cause: the reason) when `signal` reads as aborted, or its reads throw. */
export function throwIfAborted(signal: AbortSignal | undefined, stage: Stage): void {
  if (signal === undefined) return;
  let reason: unknown;
  try {
    if (signal.aborted === false) return;
    reason = signal.reason;
  } catch (thrown) {
    reason = thrown;
  }
  throw abortedError(stage, reason);
}

/**
 * Refuses a `signal` that cannot be watched (`BTC_POLICY_INVALID`, `["signal"]`), then one already aborted
 * (`beforeSigning`). Runs before any key or wallet is used.
 */
export function checkSignal(signal: unknown): asserts signal is AbortSignal | undefined {
  let watchable = signal === undefined;
  try {
    const s = signal as AbortSignal;
    watchable ||= typeof s.addEventListener === "function" && typeof s.removeEventListener === "function";
  } catch {
    // A signal whose reads throw is no signal.
  }
  if (!watchable)
    throw createBitcoinError("BTC_POLICY_INVALID", "signal is not an AbortSignal.", { policy: ["signal"] });
  throwIfAborted(signal as AbortSignal | undefined, "beforeSigning");
}

/**
 * `run()`'s answer, or `BTC_SIGNING_ABORTED` as soon as `signal` aborts, also when it reads as aborted once the
 * answer is in. `run` starts only once the listener is attached and the signal still reads as not aborted (stage
 * `beforeSigning` until then); what it answers after an abort is never returned, and its late rejection is absorbed.
 */
export function untilAborted<T>(signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
  if (signal === undefined) return run();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let stage: Stage = "beforeSigning";
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      try {
        signal.removeEventListener("abort", onAbort);
      } catch {
        // A signal that cannot remove its listener keeps a settled no-op.
      }
      try {
        settle();
      } catch (error) {
        reject(error);
      }
    };
    const check = () => throwIfAborted(signal, stage);
    // An abort event is an abort even when the signal does not read as aborted (its reason is then unknown).
    const onAbort = () =>
      finish(() => {
        check();
        reject(abortedError(stage, undefined));
      });
    try {
      signal.addEventListener("abort", onAbort);
    } catch (thrown) {
      return finish(() => reject(abortedError(stage, thrown)));
    }
    // The listener may have fired while it was added: then nothing is asked.
    if (settled) return;
    try {
      check();
    } catch (error) {
      return finish(() => reject(error));
    }
    stage = "whileSigning";
    run().then(
      (value) =>
        finish(() => {
          check();
          resolve(value);
        }),
      (error: unknown) =>
        finish(() => {
          check();
          reject(error);
        }),
    );
  });
}
