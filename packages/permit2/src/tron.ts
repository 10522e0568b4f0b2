export { TRON_CHAIN_ID_MASK } from "./constants.js";
export { isPermit2Error, type Permit2Error, type Permit2ErrorCode } from "./errors.js";
export {
  type FormatTronAddressErrorType,
  type FormatTronAddressParameters,
  type FormatTronAddressReturnType,
  formatTronAddress,
} from "./formatTronAddress.js";
export {
  type NormalizeSignatureErrorType,
  type NormalizeSignatureParameters,
  type NormalizeSignatureReturnType,
  normalizeSignature,
} from "./normalizeSignature.js";
export {
  type ParseTronAddressErrorType,
  type ParseTronAddressParameters,
  type ParseTronAddressReturnType,
  parseTronAddress,
} from "./parseTronAddress.js";
export {
  type SignTronPermit2ApprovalErrorType,
  type SignTronPermit2ApprovalParameters,
  type SignTronPermit2ApprovalReturnType,
  signTronPermit2Approval,
  type TronTypedDataSigner,
  type TronWebModule,
} from "./tron/signTronPermit2Approval.js";
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
