export { CANONICAL_PERMIT2_ADDRESS } from "./constants.js";
export * from "./entries/common.js";
export type { Permit2ChainReader } from "./evm/assertContractSignature.js";
export {
  type AssertPermit2AllowanceErrorType,
  type AssertPermit2AllowanceParameters,
  type AssertPermit2AllowanceReturnType,
  assertPermit2Allowance,
} from "./evm/assertPermit2Allowance.js";
export type { Permit2Eip1193Provider } from "./evm/eip1193.js";
export {
  type GetPermit2AllowanceErrorType,
  type GetPermit2AllowanceParameters,
  type GetPermit2AllowanceReturnType,
  getPermit2Allowance,
  type Permit2AllowanceClient,
  type Permit2ApproveTransaction,
} from "./evm/getPermit2Allowance.js";
export {
  type Permit2EvmSigner,
  type Permit2EvmTypedData,
  type Permit2WalletClient,
  type SignPermit2ApprovalErrorType,
  type SignPermit2ApprovalParameters,
  type SignPermit2ApprovalReturnType,
  signPermit2Approval,
} from "./evm/signPermit2Approval.js";
