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

/**
 * The wallets of `?wallets=injected`: for each chain type, the named injected wallet or the type's first one; when
 * names are given, only the chain types they name (the page keeps its own key for the others).
 */
export async function createInjectedWallets(params: {
  chains: ChainFacts[];
  names: string[];
}): Promise<Map<string, BrowserWallet>> {
  const wallets = new Map<string, BrowserWallet>();
  for (const chain of params.chains) {
    if (wallets.has(chain.type)) continue;
    const ofType = injectedWallets.filter((w) => w.type === chain.type);
    const named = ofType.find((w) => params.names.includes(w.name));
    // Names given, none of this chain type: the chain keeps the page's own key (a test that injects only one
    // signer package's wallets names them; the other chains' ends need only an address).
    if (params.names.length > 0 && !named) continue;
    const entry = named ?? ofType[0];
    if (!entry) throw new Error(`no injected wallet adapter for ${chain.type}`);
    wallets.set(chain.type, await entry.create({ chain }));
  }
  return wallets;
}
