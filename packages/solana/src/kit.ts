/**
 * `@swapintent/solana/kit`: verify and co-sign from the transaction bytes with no `@solana/web3.js` 1.x, for a
 * `@solana/kit` signer (`KeyPairSigner`, `TransactionPartialSigner`) or a wallet-standard wallet
 * (`solana:signTransaction`). The checks are the ones of the main entry, over the same decoded form.
 */
export {
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  COMPUTE_BUDGET_PROGRAM_ADDRESS,
  DEFAULT_ALLOWED_PROGRAMS,
  MEMO_PROGRAM_ADDRESS,
  MEMO_V1_PROGRAM_ADDRESS,
  NATIVE_SOL_ADDRESS,
  SOLANA_PROGRAM_ADDRESSES,
  SYSTEM_PROGRAM_ADDRESS,
  TOKEN_2022_PROGRAM_ADDRESS,
  TOKEN_PROGRAM_ADDRESS,
  WRAPPED_SOL_MINT_ADDRESS,
} from "./constants.js";
export type {
  SolanaCosignError,
  SolanaCosignErrorCode,
  SolanaCosignErrorDetails,
  SolanaCosignSigningErrorCode,
  SolanaError,
  SolanaErrorCode,
  SolanaErrorDetails,
} from "./errors.js";
export {
  type GetAssociatedTokenAccountAddressErrorType,
  type GetAssociatedTokenAccountAddressParameters,
  type GetAssociatedTokenAccountAddressReturnType,
  getAssociatedTokenAccountAddress,
} from "./getAssociatedTokenAccountAddress.js";
export {
  type GetAssociatedTokenAddressErrorType,
  type GetAssociatedTokenAddressParameters,
  type GetAssociatedTokenAddressReturnType,
  getAssociatedTokenAddress,
} from "./getAssociatedTokenAddress.js";
export type { AddressLike } from "./internal/address.js";
export { isSolanaCosignError } from "./isSolanaCosignError.js";
export { isSolanaError } from "./isSolanaError.js";
export {
  type KitCosignSigner,
  type KitCosignTransaction,
  type ReadonlyBytes,
  type SignCosignTransactionWithKitErrorType,
  type SignCosignTransactionWithKitParameters,
  type SignCosignTransactionWithKitReturnType,
  signCosignTransactionWithKit,
} from "./signCosignTransactionWithKit.js";
export {
  type SignCosignTransactionWithWalletStandardErrorType,
  type SignCosignTransactionWithWalletStandardParameters,
  type SignCosignTransactionWithWalletStandardReturnType,
  SOLANA_SIGN_TRANSACTION_FEATURE,
  signCosignTransactionWithWalletStandard,
  type WalletStandardAccount,
  type WalletStandardSignTransactionFeature,
  type WalletStandardSignTransactionInput,
  type WalletStandardSignTransactionOutput,
  type WalletStandardWallet,
} from "./signCosignTransactionWithWalletStandard.js";
export {
  type ExpectedEscrow,
  type LookupTableContents,
  type Token2022MintFacts,
  type VerifyCosignTransactionErrorType,
  type VerifyCosignTransactionParameters,
  type VerifyCosignTransactionReturnType,
  verifyCosignTransaction,
} from "./verifyCosignTransaction.js";
