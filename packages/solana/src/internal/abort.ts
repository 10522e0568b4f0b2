/**
 * The caller's `AbortSignal`, read so that a hostile or broken signal cannot break a signing flow: a signal whose
 * `aborted` getter throws (or answers anything but `false`) counts as aborted, a listener is attached only while the
 * wallet is asked and removed once that question settles, and whatever the wallet answers after the abort is never
 * used (its late rejection is handled, never unhandled). The race and the reads are `@swapintent/client`'s, shared by
 * every signer package; this file keeps the Solana codes.
 */
import { isAbortSignalLike, raceAbortSignal, readAbortSignal } from "@swapintent/client/internal";
import { solanaError } from "../errors.js";

/**
 * Refuses a `signal` that is no `AbortSignal` (`SOL_INVALID_PARAMETERS`, parameter `signal`), then one already
 * aborted (`SOL_SIGNING_ABORTED`, stage `beforeSigning`): run before any wallet or key is touched.
 */
export function checkSignal(signal: unknown): asserts signal is AbortSignal | undefined {
  if (signal !== undefined && !isAbortSignalLike({ signal }))
    throw solanaError("SOL_INVALID_PARAMETERS", "signal is not an AbortSignal.", { parameter: "signal" });
  throwIfAborted(signal as AbortSignal | undefined, "beforeSigning");
}

/** `SOL_SIGNING_ABORTED` (cause: the signal's reason) when `signal` has aborted. */
export function throwIfAborted(
  signal: AbortSignal | undefined,
  stage: "beforeSigning" | "whileSigning",
): void {
  const state = readAbortSignal({ signal });
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
  return raceAbortSignal({
    signal,
    run,
    abortError: ({ reason, asked }) =>
      (aborted = abortedError(asked ? "whileSigning" : "beforeSigning", reason)),
  }).catch((error: unknown) => {
    // The abort's own error, by identity (a wallet rejecting with `undefined` is a refusal, not the abort).
    if (aborted && error === aborted) throw error;
    throw solanaError("SOL_SIGNING_FAILED", `The ${source} refused or failed to sign.`, { source }, error);
  });
}

function abortedError(stage: "beforeSigning" | "whileSigning", reason: unknown) {
  return solanaError("SOL_SIGNING_ABORTED", "Signing was aborted by the caller's signal.", { stage }, reason);
}
