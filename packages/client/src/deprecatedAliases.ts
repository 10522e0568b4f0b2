// The plumbing that moved to `@swapintent/client/internal`, kept on the root for one minor release so that code
// importing it from the root still builds. Each function is the same function as the subpath's; each type is declared
// here with the same shape as the subpath's (`index.test-d.ts` checks they stay the same), so that the root's public
// signatures name only what the root exports.

import { isAbortSignalLike as isAbortSignalLikeOfInternal } from "./abort/isAbortSignalLike.js";
import { raceAbortSignal as raceAbortSignalOfInternal } from "./abort/raceAbortSignal.js";
import { readAbortSignal as readAbortSignalOfInternal } from "./abort/readAbortSignal.js";
import type { ClientError } from "./errors/codes.js";
import { hasErrorCode as hasErrorCodeOfInternal } from "./errors/hasErrorCode.js";
import { stringifyCanonicalJson as stringifyCanonicalJsonOfInternal } from "./signing/stringifyCanonicalJson.js";

/**
 * @deprecated Import `hasErrorCode` from `@swapintent/client/internal` (plumbing for the swapintent packages).
 *
 * @example
 * import { hasErrorCode } from "@swapintent/client/internal";
 * hasErrorCode(new Error("not ours"), { MY_CODE: true }); // false
 */
export const hasErrorCode: (error: unknown, codes: Readonly<Record<string, true>>, code?: string) => boolean =
  hasErrorCodeOfInternal;

/**
 * @deprecated Import `isAbortSignalLike` from `@swapintent/client/internal` (plumbing for the swapintent packages).
 *
 * @example
 * import { isAbortSignalLike } from "@swapintent/client/internal";
 * isAbortSignalLike({ signal: new AbortController().signal }); // true
 */
export const isAbortSignalLike: (parameters: IsAbortSignalLikeParameters) => IsAbortSignalLikeReturnType =
  isAbortSignalLikeOfInternal;
/** @deprecated Import it from `@swapintent/client/internal`. */
export interface IsAbortSignalLikeParameters {
  /** Whatever the caller passed as `signal`. */
  signal: unknown;
}
/** @deprecated Import it from `@swapintent/client/internal`. */
export type IsAbortSignalLikeReturnType = boolean;
/** @deprecated Import it from `@swapintent/client/internal`. */
export type IsAbortSignalLikeErrorType = never;

/**
 * @deprecated Import `raceAbortSignal` from `@swapintent/client/internal` (plumbing for the swapintent packages).
 *
 * @example
 * import { raceAbortSignal } from "@swapintent/client/internal";
 * void raceAbortSignal({ signal: undefined, run: () => "answer", abortError: () => new Error("aborted") });
 */
export const raceAbortSignal: <T>(parameters: RaceAbortSignalParameters<T>) => RaceAbortSignalReturnType<T> =
  raceAbortSignalOfInternal;
/** @deprecated Import it from `@swapintent/client/internal`. */
export interface RaceAbortSignalParameters<T> {
  /** The caller's signal; without one, `run` is simply called. */
  signal: AbortSignal | undefined;
  /** Asks the wallet or signer (called at most once, synchronously, and only while the signal is live). */
  run: () => Promise<T> | T;
  /** The error to reject with once the signal aborted; `asked`: whether `run` was called. */
  abortError: (parameters: { reason: unknown; asked: boolean }) => unknown;
}
/** @deprecated Import it from `@swapintent/client/internal`. */
export type RaceAbortSignalReturnType<T> = Promise<T>;
/** @deprecated Import it from `@swapintent/client/internal`. */
export type RaceAbortSignalErrorType = unknown;

/**
 * @deprecated Import `readAbortSignal` from `@swapintent/client/internal` (plumbing for the swapintent packages).
 *
 * @example
 * import { readAbortSignal } from "@swapintent/client/internal";
 * readAbortSignal({ signal: AbortSignal.abort("left") }); // { aborted: true, reason: "left" }
 */
export const readAbortSignal: (parameters: ReadAbortSignalParameters) => ReadAbortSignalReturnType =
  readAbortSignalOfInternal;
/** @deprecated Import it from `@swapintent/client/internal`. */
export interface ReadAbortSignalParameters {
  /** The caller's signal; `undefined` never aborts. */
  signal: AbortSignal | undefined;
}
/** @deprecated Import it from `@swapintent/client/internal`. */
export type ReadAbortSignalReturnType = { aborted: false } | { aborted: true; reason: unknown };
/** @deprecated Import it from `@swapintent/client/internal`. */
export type ReadAbortSignalErrorType = never;

/**
 * @deprecated Import `stringifyCanonicalJson` from `@swapintent/client/internal` (plumbing for the swapintent
 * packages).
 *
 * @example
 * import { stringifyCanonicalJson } from "@swapintent/client/internal";
 * stringifyCanonicalJson({ value: { b: 1, a: 2 } }); // '{"a":2,"b":1}'
 */
export const stringifyCanonicalJson: (
  parameters: StringifyCanonicalJsonParameters,
) => StringifyCanonicalJsonReturnType = stringifyCanonicalJsonOfInternal;
/** @deprecated Import it from `@swapintent/client/internal`. */
export interface StringifyCanonicalJsonParameters {
  /** A JSON value: objects, arrays, strings, finite numbers, booleans, `null`; `undefined` members are left out. */
  value: unknown;
}
/** @deprecated Import it from `@swapintent/client/internal`. */
export type StringifyCanonicalJsonReturnType = string;
/** @deprecated Import it from `@swapintent/client/internal`. */
export type StringifyCanonicalJsonErrorType = ClientError<"INVALID_INPUT">;
