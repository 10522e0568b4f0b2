export {
  type BuildHtlcLeavesErrorType,
  type BuildHtlcLeavesParameters,
  type BuildHtlcLeavesReturnType,
  buildHtlcLeaves,
} from "./buildHtlcLeaves.js";
export { DEFAULT_HTLC_POLICY, NUMS_INTERNAL_KEY_HEX, TAPSCRIPT_LEAF_VERSION } from "./constants.js";
export {
  type CreateHtlcActionsErrorType,
  type CreateHtlcActionsParameters,
  type CreateHtlcActionsReturnType,
  createHtlcActions,
} from "./createHtlcActions.js";
export {
  type BitcoinError,
  type BitcoinErrorCode,
  type BitcoinErrorDetails,
  type FeeDetails,
  isBitcoinError,
  type SignatureProblem,
} from "./errors.js";
export {
  type GetUserScriptsErrorType,
  type GetUserScriptsParameters,
  type GetUserScriptsReturnType,
  getUserScripts,
} from "./getUserScripts.js";
export {
  type ParseHtlcLeavesErrorType,
  type ParseHtlcLeavesParameters,
  type ParseHtlcLeavesReturnType,
  parseHtlcLeaves,
} from "./parseHtlcLeaves.js";
export {
  type SignHtlcPsbtErrorType,
  type SignHtlcPsbtParameters,
  type SignHtlcPsbtReturnType,
  signHtlcPsbt,
} from "./signHtlcPsbt.js";
export {
  type SignHtlcRefundErrorType,
  type SignHtlcRefundParameters,
  type SignHtlcRefundReturnType,
  signHtlcRefund,
} from "./signHtlcRefund.js";
export type {
  BitcoinEcc,
  HtlcOutput,
  HtlcPolicy,
  HtlcPolicyParameters,
  KeySigner,
  PsbtWalletSigner,
  SignPsbtInput,
  SignPsbtParameters,
  SignPsbtReturnType,
} from "./types.js";
export type { ListedInput } from "./verifyHtlcPsbt/common.js";
export {
  type VerifyHtlcPsbtErrorType,
  type VerifyHtlcPsbtParameters,
  type VerifyHtlcPsbtReturnType,
  verifyHtlcPsbt,
} from "./verifyHtlcPsbt/verifyHtlcPsbt.js";
