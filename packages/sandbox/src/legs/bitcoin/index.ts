export { HTLC_CSV_BLOCKS } from "./buildHtlcApproval.js";
export { createBitcoinLeg } from "./createBitcoinLeg.js";
export { FEE_RATE_SAT_PER_VBYTE } from "./fees.js";
export type { BitcoinLeg } from "./types.js";
