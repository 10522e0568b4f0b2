/** Parameters of {@link readAbortSignal}. */
export interface ReadAbortSignalParameters {
  /** The caller's signal; `undefined` never aborts. */
  signal: AbortSignal | undefined;
}

/** What {@link readAbortSignal} returns: not aborted, or aborted with the reason to report as an error's `cause`. */
export type ReadAbortSignalReturnType = { aborted: false } | { aborted: true; reason: unknown };

/** The errors {@link readAbortSignal} can throw. */
export type ReadAbortSignalErrorType = never;

/**
 * Reads `signal.aborted` and `signal.reason` so that a hostile or broken signal cannot break a signing flow: a read
 * that throws counts as aborted (the thrown value is the reason), and so does any answer but `false`.
 *
 * @example
 * const state = readAbortSignal({ signal });
 * if (state.aborted) throw createMyError("MY_SIGNING_ABORTED", { stage: "beforeSigning" }, state.reason);
 */
export function readAbortSignal({ signal }: ReadAbortSignalParameters): ReadAbortSignalReturnType {
  if (signal === undefined) return { aborted: false };
  try {
    if (signal.aborted === false) return { aborted: false };
    return { aborted: true, reason: signal.reason };
  } catch (thrown) {
    return { aborted: true, reason: thrown };
  }
}
