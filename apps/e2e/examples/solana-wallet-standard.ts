import type { Intent, Quote } from "@swapintent/client";
import {
  SOLANA_SIGN_TRANSACTION_FEATURE,
  signCosignTransactionWithWalletStandard,
  type WalletStandardWallet,
} from "@swapintent/solana/kit";

/**
 * With the wallet the user already has (Phantom, Solflare, Backpack… through wallet-standard): verify first, then
 * ask the wallet's `solana:signTransaction`, and refuse its answer unless only the user's signature was added.
 */
export async function signOnSolanaWithWallet(
  intent: Intent,
  quote: Quote,
  wallets: readonly WalletStandardWallet[],
  escrowOwner: string,
) {
  // From getWallets().get() of @wallet-standard/app; its accounts are set once standard:connect succeeded.
  const wallet = wallets.find((w) => SOLANA_SIGN_TRANSACTION_FEATURE in w.features && w.accounts.length > 0);
  if (wallet === undefined) throw new Error("No connected Solana wallet");
  const { approval } = await signCosignTransactionWithWalletStandard({
    intent,
    quote,
    escrow: { owner: escrowOwner },
    wallet,
    account: wallet.accounts[0]!,
    chain: "solana:mainnet",
  });
  return approval;
}
