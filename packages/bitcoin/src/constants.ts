/** BIP-341 "nothing up my sleeve" x-only key (no known private key): the HTLC's internal key. */
export const NUMS_INTERNAL_KEY_HEX = "50929b74c1a04954b78b4b6035e97a5e078a5a0f28ec96d547bfee9ace803ac0";

/** Tapscript leaf version of both HTLC leaves. */
export const TAPSCRIPT_LEAF_VERSION = 0xc0;

/**
 * Default limits of `verifyHtlcPsbt` (see `HtlcPolicy`). The fee caps protect a wallet that passes no policy: the
 * service picks the fee, and whatever it adds comes out of the user's change. At most 25 sat/vB (a busy mempool's
 * rate; pass `maxFeeRateSatPerVbyte` from your fee estimator when the market is higher), at most 2% of the swap
 * (`maxFeeBps` 200) and at most 20,000 sat: a 100,000-sat deposit of about 110 vB can pay at most 2,000 sat.
 */
export const DEFAULT_HTLC_POLICY = {
  minCsvBlocks: 6,
  maxCsvBlocks: 1008,
  maxFeeLots: 20_000n,
  maxFeeRateSatPerVbyte: 25n,
  maxFeeBps: 200,
  minFeeRateSatPerVbyte: 1n,
  maxDeadlineSecs: 86_400,
} as const;
