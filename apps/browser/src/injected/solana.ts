import {
  SOLANA_SIGN_TRANSACTION_FEATURE,
  signCosignTransactionWithWalletStandard,
  type WalletStandardAccount,
} from "@swapintent/solana/kit";
import { createSignOnlyWalletBase } from "@swapintent/testing/wallet";
import { getWallets, type Wallet } from "@wallet-standard/core";
import { readFact, toHex } from "../wallets/types.js";
import { injectedWallets } from "./index.js";

/** The chain the page asks a wallet-standard wallet to sign for (the sandbox is a local validator). */
const CHAIN = "solana:localnet";

/** How long the page waits for a wallet-standard wallet to register before giving up. */
const REGISTER_TIMEOUT_MS = 5_000;

/** The first registered wallet with `solana:signTransaction` and `standard:connect`, waiting for one to register. */
async function findWallet(): Promise<Wallet> {
  const wallets = getWallets();
  const usable = (w: Wallet) =>
    SOLANA_SIGN_TRANSACTION_FEATURE in w.features && "standard:connect" in w.features;
  const found = wallets.get().find(usable);
  if (found) return found;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error("no wallet-standard wallet with solana:signTransaction registered"));
    }, REGISTER_TIMEOUT_MS);
    const off = wallets.on("register", (...registered) => {
      const wallet = registered.find(usable);
      if (!wallet) return;
      clearTimeout(timer);
      off();
      resolve(wallet);
    });
  });
}

/**
 * A wallet-standard wallet (found through `getWallets()`): the page connects (`standard:connect`) and signs through
 * `signCosignTransactionWithWalletStandard`, which verifies before the wallet is asked and refuses an answer in
 * which anything but the user's signature changed. The key lives in the wallet.
 */
injectedWallets.push({
  name: "wallet-standard",
  type: "SOLANA",
  async create({ chain }) {
    const wallet = await findWallet();
    const connect = wallet.features["standard:connect"] as {
      connect(input?: { silent?: boolean }): Promise<{ accounts: readonly WalletStandardAccount[] }>;
    };
    const { accounts } = await connect.connect();
    const account = accounts.find((a) => a.features.includes(SOLANA_SIGN_TRANSACTION_FEATURE)) ?? accounts[0];
    if (!account) throw new Error(`${wallet.name} authorized no account`);
    const escrow = { owner: readFact(chain.info, "escrowOwner") };
    return {
      ...createSignOnlyWalletBase({
        type: "SOLANA",
        address: account.address,
        publicKeyHex: toHex(Uint8Array.from(account.publicKey as Uint8Array)),
      }),
      async approve({ intent, quote }) {
        const signed = await signCosignTransactionWithWalletStandard({
          intent,
          quote,
          escrow,
          wallet,
          account,
          chain: CHAIN,
        });
        return {
          approval: signed.approval,
          summary: [
            `${wallet.name} cosigned the transfer of ${quote.sourceAmountLots} lots to the escrow (owner ${escrow.owner})`,
          ],
        };
      },
    };
  },
});
