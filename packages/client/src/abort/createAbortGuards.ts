import { isAbortSignalLike } from "./isAbortSignalLike.js";
import { raceAbortSignal } from "./raceAbortSignal.js";
import { readAbortSignal } from "./readAbortSignal.js";

/** Where signing stood when the signal aborted: before any key or wallet was asked, or while one was. */
export type AbortStage = "beforeSigning" | "whileSigning";

/** Parameters of {@link createAbortGuards}: the package's own coded errors. */
export interface CreateAbortGuardsParameters {
  /** The error for a `signal` that is not an `AbortSignal` (nothing can watch it). */
  invalidSignalError: () => unknown;
  /** The error for an aborted signal at `stage`; `reason` is the signal's reason (its `cause`). */
  abortedError: (parameters: { stage: AbortStage; reason: unknown }) => unknown;
  /**
   * When given, what the wallet or signer throws or rejects with (anything but the abort itself, even an error of
   * the package's own shape) becomes this error, naming `source`, the thrown value as `cause`. Without it the
   * wallet's own error is passed on as is.
   */
  failedError?: (parameters: { source: string; cause: unknown }) => unknown;
}

/** The signal checks of one package, each throwing that package's codes. */
export interface AbortGuards {
  /**
   * Refuses a `signal` that cannot be watched (`invalidSignalError`), then one already aborted (stage
   * `beforeSigning`). Run before any key or wallet is used.
   */
  checkSignal(signal: unknown): asserts signal is AbortSignal | undefined;
  /** Throws `abortedError` at `stage` when `signal` reads as aborted, or its reads throw. */
  throwIfAborted(signal: AbortSignal | undefined, stage: AbortStage): void;
  /**
   * `run()`'s answer, or `abortedError` as soon as `signal` aborts: stage `whileSigning` once `run` was called,
   * `beforeSigning` when the signal cannot be listened to or aborts while it is. An answer after the abort is never
   * returned, a late rejection is absorbed. With `failedError`, a failure of `run` becomes that error, naming
   * `source`.
   */
  untilAborted<T>(signal: AbortSignal | undefined, run: () => Promise<T> | T, source?: string): Promise<T>;
}

/** What {@link createAbortGuards} returns. */
export type CreateAbortGuardsReturnType = AbortGuards;

/** The errors {@link createAbortGuards} can throw: none (the guards throw the package's own errors). */
export type CreateAbortGuardsErrorType = never;

/**
 * The caller's `AbortSignal` checks of a signer package, built once from the package's coded errors, so that every
 * package reads a hostile or broken signal the same way: a read that throws counts as aborted (the thrown value is
 * the reason), a listener fired while it is added means no key or wallet is asked, and the listener is removed once
 * the question settles (see `raceAbortSignal` and `readAbortSignal`).
 *
 * @example
 * const guards = createAbortGuards({
 *   invalidSignalError: () => createMyError("MY_INVALID_PARAMETERS", { parameter: "signal" }),
 *   abortedError: ({ stage, reason }) => createMyError("MY_SIGNING_ABORTED", { stage }, reason),
 * });
 * guards.checkSignal(signal); // before any key is touched
 * const signature = await guards.untilAborted(signal, () => wallet.sign(message));
 */
export function createAbortGuards(parameters: CreateAbortGuardsParameters): CreateAbortGuardsReturnType {
  const { invalidSignalError, abortedError, failedError } = parameters;
  const throwIfAborted = (signal: AbortSignal | undefined, stage: AbortStage): void => {
    const state = readAbortSignal({ signal });
    if (state.aborted) throw abortedError({ stage, reason: state.reason });
  };
  return {
    checkSignal(signal: unknown): asserts signal is AbortSignal | undefined {
      if (signal !== undefined && !isAbortSignalLike({ signal })) throw invalidSignalError();
      throwIfAborted(signal as AbortSignal | undefined, "beforeSigning");
    },
    throwIfAborted,
    untilAborted<T>(
      signal: AbortSignal | undefined,
      run: () => Promise<T> | T,
      source = "wallet",
    ): Promise<T> {
      let aborted: unknown;
      let isAborted = false;
      const race = raceAbortSignal({
        signal,
        run,
        abortError: ({ reason, asked }) => {
          isAborted = true;
          aborted = abortedError({ stage: asked ? "whileSigning" : "beforeSigning", reason });
          return aborted;
        },
      });
      if (!failedError) return race;
      return race.catch((error: unknown) => {
        // The abort's own error, by identity (a wallet rejecting with `undefined` is a refusal, not the abort).
        if (isAborted && error === aborted) throw error;
        throw failedError({ source, cause: error });
      });
    },
  };
}
