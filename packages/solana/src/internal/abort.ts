/**
 * The caller's `AbortSignal`, read so that a hostile or broken signal cannot break a signing flow: a signal whose
 * `aborted` getter throws (or answers anything but `false`) counts as aborted, a listener is attached only while the
 * wallet is asked and removed once that question settles, and whatever the wallet answers after the abort is never
 * used (its late rejection is handled, never unhandled). The checks are `@swapintent/client/internal`'s
 * `createAbortGuards`, shared by every signer package; this file gives them the Solana codes.
 */
import { type AbortGuards, createAbortGuards } from "@swapintent/client/internal";
import { solanaError } from "../errors.js";

const guards = createAbortGuards({
  invalidSignalError: () =>
    solanaError("SOL_INVALID_PARAMETERS", "signal is not an AbortSignal.", { parameter: "signal" }),
  abortedError: ({ stage, reason }) =>
    solanaError("SOL_SIGNING_ABORTED", "Signing was aborted by the caller's signal.", { stage }, reason),
  failedError: ({ source, cause }) =>
    solanaError("SOL_SIGNING_FAILED", `The ${source} refused or failed to sign.`, { source }, cause),
});

/**
 * Refuses a `signal` that is no `AbortSignal` (`SOL_INVALID_PARAMETERS`, parameter `signal`), then one already
 * aborted (`SOL_SIGNING_ABORTED`, stage `beforeSigning`): run before any wallet or key is touched.
 */
export const checkSignal: AbortGuards["checkSignal"] = guards.checkSignal;

/** `SOL_SIGNING_ABORTED` (cause: the signal's reason) when `signal` has aborted. */
export const throwIfAborted: AbortGuards["throwIfAborted"] = guards.throwIfAborted;

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
  return guards.untilAborted(signal, run, source);
}
