export { MEMO_PROGRAM_ADDRESS, NATIVE_SOL_ADDRESS, WRAPPED_SOL_MINT } from "./constants.js";
export { createSolanaLeg } from "./createSolanaLeg.js";
