export { buildHtlcLeaves } from "./buildHtlcLeaves.js";
export { DEFAULT_HTLC_POLICY, NUMS_INTERNAL_KEY_HEX, TAPSCRIPT_LEAF_VERSION } from "./constants.js";
export {
  type BitcoinSigner,
  type CreateBitcoinSignerParameters,
  createBitcoinSigner,
} from "./createBitcoinSigner.js";
export { type BitcoinErrorCode, createBitcoinError } from "./errors.js";
export { getUserScripts } from "./getUserScripts.js";
export { parseHtlcLeaves } from "./parseHtlcLeaves.js";
export { type SignHtlcPsbtParameters, type SignHtlcPsbtReturnType, signHtlcPsbt } from "./signHtlcPsbt.js";
export {
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
} from "./types.js";
export { type VerifiedHtlcPsbt, type VerifyHtlcPsbtParameters, verifyHtlcPsbt } from "./verifyHtlcPsbt.js";
