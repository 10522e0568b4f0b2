import { isSolanaCosignError } from "./isSolanaCosignError.js";

/**
 * @deprecated Use {@link isSolanaCosignError} (the same function; `isSolanaError` is also `@solana/kit`'s name).
 * Kept for one minor release.
 */
export const isSolanaError: typeof isSolanaCosignError = isSolanaCosignError;
