/** Address of the canonical Permit2 deployment (the same on every EVM chain Uniswap deployed it to). */
export const CANONICAL_PERMIT2_ADDRESS = "0x000000000022D473030F116dDEE9F6B43aC78BA3" as const;

/** TIP-712 hashes a Tron chain id masked to its low 32 bits. */
export const TRON_CHAIN_ID_MASK = 0xffffffffn;

/** Default upper bound for how far in the future a permit deadline may lie: one day. */
export const DEFAULT_MAX_DEADLINE_SECS = 86_400;

/** The primary type of every Permit2 witness transfer. */
export const PERMIT2_PRIMARY_TYPE = "PermitWitnessTransferFrom" as const;

/** The fixed start of Permit2's `PermitWitnessTransferFrom` type string; the witness type string completes it. */
export const PERMIT2_WITNESS_TYPE_STUB =
  "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,";
