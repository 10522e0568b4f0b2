// The plumbing that moved to `@swapintent/client/internal`, kept on the root for one minor release so that code
// importing it from the root still builds. Each is the same function as the subpath's.

import {
  type IsAbortSignalLikeErrorType as InternalIsAbortSignalLikeErrorType,
  type IsAbortSignalLikeParameters as InternalIsAbortSignalLikeParameters,
  type IsAbortSignalLikeReturnType as InternalIsAbortSignalLikeReturnType,
  isAbortSignalLike as isAbortSignalLikeOfInternal,
} from "./abort/isAbortSignalLike.js";
import {
  type RaceAbortSignalErrorType as InternalRaceAbortSignalErrorType,
  type RaceAbortSignalParameters as InternalRaceAbortSignalParameters,
  type RaceAbortSignalReturnType as InternalRaceAbortSignalReturnType,
  raceAbortSignal as raceAbortSignalOfInternal,
} from "./abort/raceAbortSignal.js";
import {
  type ReadAbortSignalErrorType as InternalReadAbortSignalErrorType,
  type ReadAbortSignalParameters as InternalReadAbortSignalParameters,
  type ReadAbortSignalReturnType as InternalReadAbortSignalReturnType,
  readAbortSignal as readAbortSignalOfInternal,
} from "./abort/readAbortSignal.js";
import { hasErrorCode as hasErrorCodeOfInternal } from "./errors/hasErrorCode.js";
import {
  type StringifyCanonicalJsonErrorType as InternalStringifyCanonicalJsonErrorType,
  type StringifyCanonicalJsonParameters as InternalStringifyCanonicalJsonParameters,
  type StringifyCanonicalJsonReturnType as InternalStringifyCanonicalJsonReturnType,
  stringifyCanonicalJson as stringifyCanonicalJsonOfInternal,
} from "./signing/stringifyCanonicalJson.js";

/**
 * @deprecated Import `hasErrorCode` from `@swapintent/client/internal` (plumbing for the swapintent packages).
 *
 * @example
 * import { hasErrorCode } from "@swapintent/client/internal";
 * hasErrorCode(new Error("not ours"), { MY_CODE: true }); // false
 */
export const hasErrorCode: typeof hasErrorCodeOfInternal = hasErrorCodeOfInternal;

/**
 * @deprecated Import `isAbortSignalLike` from `@swapintent/client/internal` (plumbing for the swapintent packages).
 *
 * @example
 * import { isAbortSignalLike } from "@swapintent/client/internal";
 * isAbortSignalLike({ signal: new AbortController().signal }); // true
 */
export const isAbortSignalLike: typeof isAbortSignalLikeOfInternal = isAbortSignalLikeOfInternal;
/** @deprecated Import it from `@swapintent/client/internal`. */
export type IsAbortSignalLikeParameters = InternalIsAbortSignalLikeParameters;
/** @deprecated Import it from `@swapintent/client/internal`. */
export type IsAbortSignalLikeReturnType = InternalIsAbortSignalLikeReturnType;
/** @deprecated Import it from `@swapintent/client/internal`. */
export type IsAbortSignalLikeErrorType = InternalIsAbortSignalLikeErrorType;

/**
 * @deprecated Import `raceAbortSignal` from `@swapintent/client/internal` (plumbing for the swapintent packages).
 *
 * @example
 * import { raceAbortSignal } from "@swapintent/client/internal";
 * void raceAbortSignal({ signal: undefined, run: () => "answer", abortError: () => new Error("aborted") });
 */
export const raceAbortSignal: typeof raceAbortSignalOfInternal = raceAbortSignalOfInternal;
/** @deprecated Import it from `@swapintent/client/internal`. */
export type RaceAbortSignalParameters<T> = InternalRaceAbortSignalParameters<T>;
/** @deprecated Import it from `@swapintent/client/internal`. */
export type RaceAbortSignalReturnType<T> = InternalRaceAbortSignalReturnType<T>;
/** @deprecated Import it from `@swapintent/client/internal`. */
export type RaceAbortSignalErrorType = InternalRaceAbortSignalErrorType;

/**
 * @deprecated Import `readAbortSignal` from `@swapintent/client/internal` (plumbing for the swapintent packages).
 *
 * @example
 * import { readAbortSignal } from "@swapintent/client/internal";
 * readAbortSignal({ signal: AbortSignal.abort("left") }); // { aborted: true, reason: "left" }
 */
export const readAbortSignal: typeof readAbortSignalOfInternal = readAbortSignalOfInternal;
/** @deprecated Import it from `@swapintent/client/internal`. */
export type ReadAbortSignalParameters = InternalReadAbortSignalParameters;
/** @deprecated Import it from `@swapintent/client/internal`. */
export type ReadAbortSignalReturnType = InternalReadAbortSignalReturnType;
/** @deprecated Import it from `@swapintent/client/internal`. */
export type ReadAbortSignalErrorType = InternalReadAbortSignalErrorType;

/**
 * @deprecated Import `stringifyCanonicalJson` from `@swapintent/client/internal` (plumbing for the swapintent
 * packages).
 *
 * @example
 * import { stringifyCanonicalJson } from "@swapintent/client/internal";
 * stringifyCanonicalJson({ value: { b: 1, a: 2 } }); // '{"a":2,"b":1}'
 */
export const stringifyCanonicalJson: typeof stringifyCanonicalJsonOfInternal =
  stringifyCanonicalJsonOfInternal;
/** @deprecated Import it from `@swapintent/client/internal`. */
export type StringifyCanonicalJsonParameters = InternalStringifyCanonicalJsonParameters;
/** @deprecated Import it from `@swapintent/client/internal`. */
export type StringifyCanonicalJsonReturnType = InternalStringifyCanonicalJsonReturnType;
/** @deprecated Import it from `@swapintent/client/internal`. */
export type StringifyCanonicalJsonErrorType = InternalStringifyCanonicalJsonErrorType;
