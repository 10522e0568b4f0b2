export { CANONICAL_PERMIT2_ADDRESS } from "./constants.js";
export { isPermit2Error, type Permit2Error, type Permit2ErrorCode } from "./errors.js";
export {
  type AssertPermit2AllowanceErrorType,
  type AssertPermit2AllowanceParameters,
  type AssertPermit2AllowanceReturnType,
  assertPermit2Allowance,
} from "./evm/assertPermit2Allowance.js";
export {
  type GetPermit2AllowanceErrorType,
  type GetPermit2AllowanceParameters,
  type GetPermit2AllowanceReturnType,
  getPermit2Allowance,
  type Permit2ApproveTransaction,
} from "./evm/getPermit2Allowance.js";
export {
  type Permit2EvmSigner,
  type SignPermit2ApprovalErrorType,
  type SignPermit2ApprovalParameters,
  type SignPermit2ApprovalReturnType,
  signPermit2Approval,
} from "./evm/signPermit2Approval.js";
export {
  type NormalizeSignatureErrorType,
  type NormalizeSignatureParameters,
  type NormalizeSignatureReturnType,
  normalizeSignature,
} from "./normalizeSignature.js";
export type {
  Permit2ApprovalSummary,
  Permit2DestinationExpectation,
  Permit2Expectation,
  Permit2FactSource,
  Permit2FactSources,
  Permit2TypedData,
  VerifyPermit2ApprovalErrorType,
  VerifyPermit2ApprovalParameters,
  VerifyPermit2ApprovalReturnType,
} from "./types.js";
export { verifyPermit2Approval } from "./verifyPermit2Approval.js";
