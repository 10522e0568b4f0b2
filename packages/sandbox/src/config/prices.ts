/** An exact price: `numerator / denominator` US dollars per whole token. */
export interface Price {
  numerator: bigint;
  denominator: bigint;
}

/** Prices by token symbol (case-sensitive, as the legs name their tokens). */
export type PriceTable = Readonly<Record<string, Price>>;

const usd = (numerator: bigint, denominator = 1n): Price => ({ numerator, denominator });

/** The sandbox's default, deterministic prices. */
export const DEFAULT_PRICES: PriceTable = Object.freeze({
  ETH: usd(3000n),
  WETH: usd(3000n),
  USDC: usd(1n),
  USDT: usd(1n),
  BTC: usd(60000n),
  SOL: usd(150n),
  wSOL: usd(150n),
  TRX: usd(1n, 4n),
  WTRX: usd(1n, 4n),
});

/** Symbols treated as stablecoins: a route between two of them is direct (no intermediate token). */
export const DEFAULT_STABLECOINS: readonly string[] = Object.freeze(["USDC", "USDT"]);
