/**
 * `@swapintent/solana`: everything of `@swapintent/solana/kit` (verification, the Kit and wallet-standard signers,
 * the guard, the constants), plus `signCosignTransaction` for `@solana/web3.js` 1.x signers (`Keypair`, a wallet
 * adapter, an external ed25519 signer).
 */
export * from "./kit.js";
export {
  type CosignSigner,
  type Ed25519MessageSigner,
  type SignCosignTransactionErrorType,
  type SignCosignTransactionParameters,
  type SignCosignTransactionReturnType,
  signCosignTransaction,
  type WalletTransactionSigner,
} from "./signCosignTransaction.js";
