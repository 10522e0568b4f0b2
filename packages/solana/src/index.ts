export {
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  COMPUTE_BUDGET_PROGRAM_ADDRESS,
  DEFAULT_ALLOWED_PROGRAMS,
  MEMO_PROGRAM_ADDRESS,
  MEMO_V1_PROGRAM_ADDRESS,
  NATIVE_SOL_ADDRESS,
  SYSTEM_PROGRAM_ADDRESS,
  TOKEN_2022_PROGRAM_ADDRESS,
  TOKEN_PROGRAM_ADDRESS,
  WRAPPED_SOL_MINT_ADDRESS,
} from "./constants.js";
export type { SolanaError, SolanaErrorCode, SolanaErrorDetails } from "./errors.js";
export {
  type GetAssociatedTokenAddressErrorType,
  type GetAssociatedTokenAddressParameters,
  type GetAssociatedTokenAddressReturnType,
  getAssociatedTokenAddress,
} from "./getAssociatedTokenAddress.js";
export { isSolanaError } from "./isSolanaError.js";
export {
  type CosignSigner,
  type Ed25519MessageSigner,
  type SignCosignTransactionErrorType,
  type SignCosignTransactionParameters,
  type SignCosignTransactionReturnType,
  signCosignTransaction,
  type WalletTransactionSigner,
} from "./signCosignTransaction.js";
export {
  type ExpectedEscrow,
  type LookupTableContents,
  type VerifyCosignTransactionErrorType,
  type VerifyCosignTransactionParameters,
  type VerifyCosignTransactionReturnType,
  verifyCosignTransaction,
} from "./verifyCosignTransaction.js";
