/** BIP-341 "nothing up my sleeve" x-only key (no known private key): the HTLC's internal key. */
export const NUMS_INTERNAL_KEY_HEX = "50929b74c1a04954b78b4b6035e97a5e078a5a0f28ec96d547bfee9ace803ac0";

/** Tapscript leaf version of both HTLC leaves. */
export const TAPSCRIPT_LEAF_VERSION = 0xc0;

/** Default limits of `verifyHtlcPsbt` (see `HtlcPolicy`). */
export const DEFAULT_HTLC_POLICY = {
  minCsvBlocks: 6,
  maxCsvBlocks: 1008,
  maxFeeLots: 50_000n,
  maxFeeRateSatPerVbyte: 200n,
  maxFeeBps: 1_000,
  minFeeRateSatPerVbyte: 1n,
  maxDeadlineSecs: 86_400,
} as const;
