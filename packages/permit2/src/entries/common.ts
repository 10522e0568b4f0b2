// What every entry (`.`, `./evm`, `./tron`) exports: verification, its types, the errors, signature normalizing.
export {
  isPermit2Error,
  type Permit2ContractSignatureErrorCode,
  type Permit2ContractSignatureProblem,
  type Permit2Error,
  type Permit2ErrorCode,
  type Permit2ErrorDetails,
  type Permit2SignatureProblem,
  type Permit2SigningErrorCode,
  type Permit2VerifyErrorCode,
} from "../errors.js";
export {
  type NormalizeSignatureErrorType,
  type NormalizeSignatureParameters,
  type NormalizeSignatureReturnType,
  normalizeSignature,
} from "../normalizeSignature.js";
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
} from "../types.js";
export { verifyPermit2Approval } from "../verify/verifyPermit2Approval.js";
