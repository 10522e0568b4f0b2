import { DEFAULT_PRICES, DEFAULT_STABLECOINS } from "../config/prices.js";
import type { Store } from "../db/createStore.js";
import type { ChainLeg, Clock, NetworkConfig } from "../legs/types.js";
import type { CatalogueToken, Core } from "../service/core.js";
import { createQuoteIds } from "../service/createQuoteIds.js";
import { toTokenKey } from "../service/toTokenKey.js";
import type { Faults, SandboxOptions } from "../types.js";

/** The token catalogue: every leg's tokens, each with an icon (the sandbox's placeholder when the leg has none). */
function listTokens(
  networks: readonly NetworkConfig[],
  legs: ReadonlyMap<number, ChainLeg>,
): CatalogueToken[] {
  return networks.flatMap((network) =>
    legs
      .get(network.id)!
      .tokens()
      // The spec's icon_url is a URL: a leg that has no icon gets the sandbox's placeholder for the symbol.
      .map((token) => ({
        ...token,
        iconUrl:
          token.iconUrl ||
          `https://sandbox.swapintent.invalid/icons/${encodeURIComponent(token.symbol.toLowerCase())}.svg`,
        networkId: network.id,
      })),
  );
}

/** What the HTTP handlers and the resolver share: the store, clock, catalogue, settings and dev faults. */
export function createCore({
  store,
  clock,
  networks,
  legs,
  options,
  enginesId,
  masterSeed,
  log,
}: {
  store: Store;
  clock: Clock;
  networks: readonly NetworkConfig[];
  legs: ReadonlyMap<number, ChainLeg>;
  options: SandboxOptions;
  enginesId: string;
  masterSeed: Uint8Array;
  log: (message: string) => void;
}): Core {
  const tokens = listTokens(networks, legs);
  const tokenIndex = new Map(tokens.map((t) => [toTokenKey(t.networkId, t.contractAddress), t]));
  const networkIndex = new Map(networks.map((n) => [n.id, n]));
  const faults: Faults = { fail_delivery: false, decline_all: false };
  return {
    store,
    clock,
    networks,
    legs,
    tokens,
    findNetwork: (id) => networkIndex.get(id),
    findToken: (networkId, address) => tokenIndex.get(toTokenKey(networkId, address)),
    config: {
      quoteTtlSecs: options.quoteTtlSecs ?? 30,
      intentTtlSecs: options.intentTtlSecs ?? 1800,
      prices: options.prices ?? DEFAULT_PRICES,
      stablecoins: new Set(options.stablecoins ?? DEFAULT_STABLECOINS),
      maxQuoteUsd: options.maxQuoteUsd ?? 10_000_000n,
    },
    faults,
    enginesId,
    quoteIds: createQuoteIds({ masterSeed }),
    log,
  };
}
