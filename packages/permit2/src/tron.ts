export { TRON_CHAIN_ID_MASK } from "./constants.js";
export type { Permit2ErrorCode } from "./errors.js";
export { type FormatTronAddressParameters, formatTronAddress } from "./formatTronAddress.js";
export { type NormalizeSignatureParameters, normalizeSignature } from "./normalizeSignature.js";
export { type ParseTronAddressParameters, parseTronAddress } from "./parseTronAddress.js";
export {
  type SignTronPermit2ApprovalParameters,
  type SignTronPermit2ApprovalResult,
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
  VerifiedPermit2Approval,
  VerifyPermit2ApprovalParameters,
} from "./types.js";
export { verifyPermit2Approval } from "./verifyPermit2Approval.js";
