/** Test support: every code of `@swapintent/solana`, once (the package's own runtime list). */
export { SOLANA_COSIGN_ERROR_CODES } from "../src/errors.js";
