export { CANONICAL_PERMIT2_ADDRESS } from "./constants.js";
export type { Permit2ErrorCode } from "./errors.js";
export { assertPermit2Allowance } from "./evm/assertPermit2Allowance.js";
export {
  type GetPermit2AllowanceParameters,
  getPermit2Allowance,
  type Permit2AllowanceResult,
  type Permit2ApproveTransaction,
} from "./evm/getPermit2Allowance.js";
export {
  type Permit2EvmSigner,
  type SignPermit2ApprovalParameters,
  type SignPermit2ApprovalResult,
  signPermit2Approval,
} from "./evm/signPermit2Approval.js";
export { normalizeSignature } from "./normalizeSignature.js";
export type {
  Permit2ApprovalSummary,
  Permit2DestinationExpectation,
  Permit2Expectation,
  Permit2FactSource,
  Permit2FactSources,
  Permit2TypedData,
  VerifiedPermit2Approval,
  VerifyPermit2ApprovalParameters,
} from "./types.js";
export { verifyPermit2Approval } from "./verifyPermit2Approval.js";
