/** Parameters of {@link isAbortSignalLike}. */
export interface IsAbortSignalLikeParameters {
  /** Whatever the caller passed as `signal`. */
  signal: unknown;
}

/** What {@link isAbortSignalLike} returns. */
export type IsAbortSignalLikeReturnType = boolean;

/** The errors {@link isAbortSignalLike} can throw. */
export type IsAbortSignalLikeErrorType = never;

/**
 * True when `signal` can be listened to as an `AbortSignal`: an object with `addEventListener` and
 * `removeEventListener` functions (duck-typed, so a signal of another realm passes; a getter that throws fails).
 *
 * @example
 * if (signal !== undefined && !isAbortSignalLike({ signal })) throw new TypeError("`signal` must be an AbortSignal");
 */
export function isAbortSignalLike({ signal }: IsAbortSignalLikeParameters): IsAbortSignalLikeReturnType {
  try {
    const candidate = signal as Partial<AbortSignal> | null;
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
