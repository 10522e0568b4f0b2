import type { Price } from "../config/prices.js";
import type { Store } from "../db/createStore.js";
import type { ChainLeg, Clock, LegToken, NetworkConfig } from "../legs/types.js";
import type { Faults } from "../types.js";
import type { QuoteIds } from "./createQuoteIds.js";

/** A token of the catalogue: a leg's token on its network. */
export interface CatalogueToken extends LegToken {
  networkId: number;
}

/** Everything the HTTP handlers and the resolver share. */
export interface Core {
  store: Store;
  /** The sandbox clock (base clock + dev offset). */
  clock: Clock;
  networks: readonly NetworkConfig[];
  legs: ReadonlyMap<number, ChainLeg>;
  tokens: readonly CatalogueToken[];
  findNetwork(id: number): NetworkConfig | undefined;
  findToken(networkId: number, address: string): CatalogueToken | undefined;
  config: {
    quoteTtlSecs: number;
    intentTtlSecs: number;
    prices: Readonly<Record<string, Price>>;
    stablecoins: ReadonlySet<string>;
    maxQuoteUsd: bigint;
  };
  faults: Faults;
  /**
   * The engines this sandbox runs (see `readEnginesId`): new intents record it, and an intent recorded under other
   * engines is neither approved nor resolved here (its funds are not on these engines).
   */
  enginesId: string;
  /** Quote ids that carry their expiry: a quote pruned after it expired is still answered "expired". */
  quoteIds: QuoteIds;
  log: (message: string) => void;
}

/** What a service function takes: the shared core and the request, parsed from the wire. */
export interface ServiceCall<TRequest> {
  core: Core;
  request: TRequest;
}
