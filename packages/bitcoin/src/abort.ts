// Internal: the caller's `AbortSignal` (signHtlcPsbt's `signal`), read so that a hostile or broken signal cannot
// break signing: a read that throws counts as aborted (the thrown value is the reason), a listener fired while it is
// added means no key or wallet is asked, and the listener is removed once the question settles. The checks are
// `@swapintent/client/internal`'s `createAbortGuards`, shared by every signer package; this file gives them the
// Bitcoin codes.
import { type AbortGuards, createAbortGuards } from "@swapintent/client/internal";
import { createBitcoinError } from "./errors.js";

const guards = createAbortGuards({
  invalidSignalError: () =>
    createBitcoinError("BTC_POLICY_INVALID", "signal is not an AbortSignal.", { policy: ["signal"] }),
  // `BTC_SIGNING_ABORTED` at `stage`; the signal's reason is its `cause`.
  abortedError: ({ stage, reason }) =>
    createBitcoinError(
      "BTC_SIGNING_ABORTED",
      "Signing was aborted by the caller's signal.",
      { stage },
      reason,
    ),
});

/** Throws `BTC_SIGNING_ABORTED` (cause: the reason) when `signal` reads as aborted, or its reads throw. */
export const throwIfAborted: AbortGuards["throwIfAborted"] = guards.throwIfAborted;

/**
 * Refuses a `signal` that cannot be watched (`BTC_POLICY_INVALID`, `["signal"]`), then one already aborted
 * (`beforeSigning`). Runs before any key or wallet is used.
 */
export const checkSignal: AbortGuards["checkSignal"] = guards.checkSignal;

/**
 * `run()`'s answer, or `BTC_SIGNING_ABORTED` as soon as `signal` aborts, also when it reads as aborted once the
 * answer (or a failure) is in. `run` starts only once the listener is attached and the signal still reads as not
 * aborted (stage `beforeSigning` until then, `whileSigning` after); what it answers after an abort is never
 * returned, and its late rejection is absorbed. What `run` throws is passed on as is.
 */
export function untilAborted<T>(signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
  return guards.untilAborted(signal, run);
}
