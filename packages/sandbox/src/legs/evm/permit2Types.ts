// The Permit2 type table, stated here and again, on purpose, in permit2's test fixture: each side checks the other.
/** EIP-712 types of the sandbox's Permit2 approval (apps/docs/pages/reference/approvals.md). */
export const PERMIT2_WITNESS_TYPES = {
  PermitWitnessTransferFrom: [
    { name: "permitted", type: "TokenPermissions" },
    { name: "spender", type: "address" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
    { name: "witness", type: "SwapWitness" },
  ],
  TokenPermissions: [
    { name: "token", type: "address" },
    { name: "amount", type: "uint256" },
  ],
  SwapWitness: [
    { name: "intentId", type: "bytes32" },
    { name: "secretHash", type: "bytes32" },
    { name: "destChain", type: "uint256" },
    { name: "destToken", type: "string" },
    { name: "recipient", type: "string" },
    { name: "minDestAmount", type: "uint256" },
    { name: "maxDestAmount", type: "uint256" },
  ],
} as const;

/** The EIP712Domain fields of Permit2 (no `version`). */
export const PERMIT2_DOMAIN_FIELDS = [
  { name: "name", type: "string" },
  { name: "chainId", type: "uint256" },
  { name: "verifyingContract", type: "address" },
] as const;

/** The tail Permit2 appends to its own type string; must equal the escrow contract's `WITNESS_TYPE_STRING`. */
export const SWAP_WITNESS_TYPE_STRING =
  "SwapWitness witness)SwapWitness(bytes32 intentId,bytes32 secretHash,uint256 destChain,string destToken,string recipient,uint256 minDestAmount,uint256 maxDestAmount)TokenPermissions(address token,uint256 amount)";

/** Token address that stands for the native coin on EVM legs (and in the escrow's `deliver`). */
export const EVM_NATIVE_TOKEN = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE" as const;
