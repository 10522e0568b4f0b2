export {
  CANONICAL_PERMIT2_ADDRESS,
  DEFAULT_MAX_DEADLINE_SECS,
  PERMIT2_PRIMARY_TYPE,
  PERMIT2_WITNESS_TYPE_STUB,
  TRON_CHAIN_ID_MASK,
} from "./constants.js";
export type { Permit2ErrorCode } from "./errors.js";
export { type FormatTronAddressParameters, formatTronAddress } from "./formatTronAddress.js";
export {
  type GetPermit2WitnessTypeStringParameters,
  getPermit2WitnessTypeString,
} from "./getPermit2WitnessTypeString.js";
export { type NormalizeSignatureParameters, normalizeSignature } from "./normalizeSignature.js";
export { type ParseTronAddressParameters, parseTronAddress } from "./parseTronAddress.js";
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
  VerifiedPermit2Approval,
  VerifyPermit2ApprovalParameters,
} from "./types.js";
export { verifyPermit2Approval } from "./verifyPermit2Approval.js";
