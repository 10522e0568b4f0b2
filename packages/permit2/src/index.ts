export {
  CANONICAL_PERMIT2_ADDRESS,
  DEFAULT_MAX_DEADLINE_SECS,
  PERMIT2_PRIMARY_TYPE,
  PERMIT2_WITNESS_TYPE_STUB,
  TRON_CHAIN_ID_MASK,
} from "./constants.js";
export { isPermit2Error, type Permit2Error, type Permit2ErrorCode } from "./errors.js";
export {
  type FormatTronAddressErrorType,
  type FormatTronAddressParameters,
  type FormatTronAddressReturnType,
  formatTronAddress,
} from "./formatTronAddress.js";
export {
  type GetPermit2WitnessTypeStringErrorType,
  type GetPermit2WitnessTypeStringParameters,
  type GetPermit2WitnessTypeStringReturnType,
  getPermit2WitnessTypeString,
} from "./getPermit2WitnessTypeString.js";
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
export type {
  Permit2ApprovalSummary,
  Permit2ChainType,
  Permit2DestinationExpectation,
  Permit2Domain,
  Permit2Expectation,
  Permit2FactSource,
  Permit2FactSources,
  Permit2Message,
  Permit2TypedData,
  Permit2WitnessValues,
  VerifyPermit2ApprovalErrorType,
  VerifyPermit2ApprovalParameters,
  VerifyPermit2ApprovalReturnType,
} from "./types.js";
export { verifyPermit2Approval } from "./verifyPermit2Approval.js";
