/**
 * `@swapintent/client/internal`: plumbing shared by the swapintent packages (`@swapintent/permit2`,
 * `@swapintent/bitcoin`, `@swapintent/solana`): the abort race and reads every signer uses (and `createAbortGuards`, which builds a package's
 * signal checks from its own coded errors), the canonical JSON of
 * request signing, the rule behind each package's error guard, and the characters no package displays from a
 * service string.
 *
 * Not for applications: nothing here carries a semver promise, and any of it may change or go in a patch release.
 * An application imports from `@swapintent/client`.
 *
 * @packageDocumentation
 */
export {
  type AbortGuards,
  type AbortStage,
  type CreateAbortGuardsErrorType,
  type CreateAbortGuardsParameters,
  type CreateAbortGuardsReturnType,
  createAbortGuards,
} from "./abort/createAbortGuards.js";
export {
  type IsAbortSignalLikeErrorType,
  type IsAbortSignalLikeParameters,
  type IsAbortSignalLikeReturnType,
  isAbortSignalLike,
} from "./abort/isAbortSignalLike.js";
export {
  type RaceAbortSignalErrorType,
  type RaceAbortSignalParameters,
  type RaceAbortSignalReturnType,
  raceAbortSignal,
} from "./abort/raceAbortSignal.js";
export {
  type ReadAbortSignalErrorType,
  type ReadAbortSignalParameters,
  type ReadAbortSignalReturnType,
  readAbortSignal,
} from "./abort/readAbortSignal.js";
export { hasErrorCode } from "./errors/hasErrorCode.js";
export { DEFAULT_IGNORABLE_RANGES, UNSAFE_DISPLAY_CHARACTERS } from "./internal/unsafeDisplayText.js";
export {
  type StringifyCanonicalJsonErrorType,
  type StringifyCanonicalJsonParameters,
  type StringifyCanonicalJsonReturnType,
  stringifyCanonicalJson,
} from "./signing/stringifyCanonicalJson.js";
