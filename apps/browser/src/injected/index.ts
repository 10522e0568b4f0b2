import type { ChainFacts } from "@swapintent/testing/devApi";
import type { BrowserWallet } from "../wallets/types.js";

/**
 * Builds the page's wallet for one chain type from a wallet the page finds injected (`?wallets=injected`), through
 * the signer package's wallet adapter: the key stays in the wallet, the package verifies before it asks the wallet
 * to sign, and re-checks what the wallet returns.
 */
export type InjectedWalletFactory = (params: { chain: ChainFacts }) => Promise<BrowserWallet>;

/**
 * The injected wallets of the page, one entry per wallet (the page's `?injected=<name>` picks one per chain type;
 * the first entry of a chain type is its default). Each chain's module adds its own entries.
 */
export const injectedWallets: { name: string; type: string; create: InjectedWalletFactory }[] = [];

/** The wallets of `?wallets=injected`: for each chain type, the named injected wallet or the type's first one. */
export async function createInjectedWallets(params: {
  chains: ChainFacts[];
  names: string[];
  /** The page's own wallet for a chain type no injected adapter serves (so one chain's wallets can be tested alone). */
  fallback?: (chain: ChainFacts) => BrowserWallet;
}): Promise<Map<string, BrowserWallet>> {
  const wallets = new Map<string, BrowserWallet>();
  for (const chain of params.chains) {
    if (wallets.has(chain.type)) continue;
    const ofType = injectedWallets.filter((w) => w.type === chain.type);
    const entry = ofType.find((w) => params.names.includes(w.name)) ?? ofType[0];
    if (!entry && params.fallback) {
      wallets.set(chain.type, params.fallback(chain));
      continue;
    }
    if (!entry) throw new Error(`no injected wallet adapter for ${chain.type}`);
    wallets.set(chain.type, await entry.create({ chain }));
  }
  return wallets;
}
