export { TRON_CHAIN_ID_MASK } from "./constants.js";
export * from "./entries/common.js";
export * from "./entries/tronAddresses.js";
export {
  type SignTronPermit2ApprovalErrorType,
  type SignTronPermit2ApprovalParameters,
  type SignTronPermit2ApprovalReturnType,
  signTronPermit2Approval,
  type TronLinkTronWeb,
  type TronSignTypedData,
  type TronTypedDataSigner,
  type TronWebModule,
} from "./tron/signTronPermit2Approval.js";
