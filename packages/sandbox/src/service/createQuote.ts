import type { Json } from "../legs/types.js";
import { computeQuoteAmounts } from "../quotes/computeQuoteAmounts.js";
import { MAX_LOTS, parseDecimalAmount } from "../quotes/parseDecimalAmount.js";
import type { CatalogueToken, Core, ServiceCall } from "./core.js";
import { createInvalidRequestError, createRejectedError, type ErrorEntity } from "./serviceError.js";

/** A quote request, parsed from the wire. */
export interface QuoteRequest {
  sourceChain: number;
  sourceToken: string;
  destChain: number;
  destToken: string;
  /** The `amount` as its exact JSON number text (human units). */
  amountText: string;
  slippageBps: string;
  swapType: string;
  retailUserId: string | undefined;
  /** The partner asking (see `Caller`): only it can create an intent from the quote. */
  partnerId: string;
}

const AMOUNT_PROBLEMS: Record<string, string> = {
  NOT_A_NUMBER: "`amount` must be a finite decimal number.",
  NOT_POSITIVE: "`amount` must be greater than zero.",
  TOO_MANY_DECIMALS: "`amount` has more decimals than the source token.",
  TOO_LARGE: "`amount` is too large.",
};

/** The intermediate token of a route: USDC on the destination, else on the source network, else another stablecoin. */
function findIntermediate(core: Core, source: CatalogueToken, dest: CatalogueToken): CatalogueToken | null {
  const { stablecoins } = core.config;
  if (stablecoins.has(source.symbol) && stablecoins.has(dest.symbol)) return null;
  const on = (networkId: number, match: (t: CatalogueToken) => boolean) =>
    core.tokens.find((t) => t.networkId === networkId && match(t));
  return (
    on(dest.networkId, (t) => t.symbol === "USDC") ??
    on(source.networkId, (t) => t.symbol === "USDC") ??
    on(dest.networkId, (t) => stablecoins.has(t.symbol)) ??
    on(source.networkId, (t) => stablecoins.has(t.symbol)) ??
    null
  );
}

/** 400 for the quote request (entity `Quote` unless given). */
const bad = (code: string, message: string, entity: ErrorEntity = "Quote") =>
  createInvalidRequestError(code, message, entity);

/** The swap type, slippage and both catalogue tokens of the request; 400 naming what is wrong. */
function readSwap(core: Core, request: QuoteRequest) {
  if (request.swapType !== "standard") throw bad("UNSUPPORTED_SWAP_TYPE", "`swap_type` must be `standard`.");
  if (!/^\d{1,5}$/.test(request.slippageBps) || Number(request.slippageBps) > 10_000)
    throw bad("INVALID_SLIPPAGE", "`slippage_bps` must be an integer string from 0 to 10000.");
  for (const chain of [request.sourceChain, request.destChain]) {
    if (!core.findNetwork(chain))
      throw bad("UNKNOWN_NETWORK", `Network ${chain} is not in the catalogue.`, "Network");
  }
  // Names the field, never repeats its value: a caller's key or secret pasted there must not come back in an error.
  const listed = (chain: number, token: string, field: string) => {
    const found = core.findToken(chain, token);
    if (!found)
      throw bad("UNKNOWN_TOKEN", `\`${field}\` is not a token listed on network ${chain}.`, "Token");
    return found;
  };
  const source = listed(request.sourceChain, request.sourceToken, "source_token");
  const dest = listed(request.destChain, request.destToken, "dest_token");
  if (source === dest) throw bad("SAME_TOKEN", "The source and destination tokens are the same.");
  return { source, dest };
}

/** A token with its price; 422 `NO_PRICE` when the sandbox has none. */
function priceOf(core: Core, token: CatalogueToken) {
  const { prices } = core.config;
  // own keys only: a catalogue symbol such as `constructor` must not find Object.prototype's
  const price = Object.hasOwn(prices, token.symbol) ? prices[token.symbol] : undefined;
  if (!price) throw createRejectedError("NO_PRICE", `The sandbox has no price for ${token.symbol}.`, "Token");
  return { decimals: token.decimals, price };
}

/**
 * The amounts of the swap of `lots` of `source` to `dest` (through the route's intermediate token, if any);
 * 422 when the source must be wrapped first, or the amount is above the sandbox's limit (or a computed amount above
 * 2^256-1 lots) or buys nothing.
 */
function priceSwap(
  core: Core,
  swap: { source: CatalogueToken; dest: CatalogueToken; lots: bigint; slippageBps: string },
) {
  const { source, dest, lots } = swap;
  if (source.wrappedTokenAddress !== null) {
    throw createRejectedError(
      "TOKEN_MUST_BE_WRAPPED",
      `${source.symbol} must be wrapped before it can be swapped (use ${source.wrappedTokenAddress}).`,
      "Token",
    );
  }
  const sourcePriced = priceOf(core, source);
  const destPriced = priceOf(core, dest);
  const usdValue =
    (lots * sourcePriced.price.numerator) / (10n ** BigInt(source.decimals) * sourcePriced.price.denominator);
  if (usdValue > core.config.maxQuoteUsd)
    throw createRejectedError(
      "AMOUNT_TOO_LARGE",
      `The amount is above the sandbox's limit of ${core.config.maxQuoteUsd} USD.`,
      "Quote",
    );
  const intermediate = findIntermediate(core, source, dest);
  const amounts = computeQuoteAmounts({
    source: sourcePriced,
    dest: destPriced,
    sourceLots: lots,
    slippageBps: BigInt(swap.slippageBps),
    intermediate: intermediate ? priceOf(core, intermediate) : null,
  });
  // Every amount a leg may be handed fits its chain's amount type (the source was checked when it was parsed).
  if (amounts.maxDestLots > MAX_LOTS || (amounts.intermediate?.maxLots ?? 0n) > MAX_LOTS)
    throw createRejectedError(
      "AMOUNT_TOO_LARGE",
      "The amount is too large: the quoted amount would not fit in 2^256-1 lots.",
      "Quote",
    );
  if (amounts.minDestLots <= 0n)
    throw createRejectedError(
      "AMOUNT_TOO_SMALL",
      "The amount is too small: it buys no destination lots.",
      "Quote",
    );
  return { intermediate, amounts };
}

/**
 * Price a swap at the sandbox's price table, store the quote and return its wire form (spec 2.1).
 * Amounts are exact integer lots; `max_dest_amount_lots` is the quoted output, `min_dest_amount_lots` applies the slippage.
 */
export async function createQuote({
  core,
  request,
}: ServiceCall<QuoteRequest>): Promise<Record<string, Json>> {
  const { source, dest } = readSwap(core, request);
  const parsed = parseDecimalAmount({ text: request.amountText, decimals: source.decimals });
  if (!parsed.ok) throw bad("INVALID_AMOUNT", AMOUNT_PROBLEMS[parsed.problem] ?? "`amount` is invalid.");
  const { intermediate, amounts } = priceSwap(core, {
    source,
    dest,
    lots: parsed.lots,
    slippageBps: request.slippageBps,
  });
  const now = core.clock.nowMs();
  const expiryMs = now + core.config.quoteTtlSecs * 1000;
  const id = core.quoteIds.create({ expiryMs, partnerId: request.partnerId });
  const wire: Record<string, Json> = {
    id,
    source_chain: source.networkId,
    source_token: source.contractAddress,
    dest_chain: dest.networkId,
    dest_token: dest.contractAddress,
    intermediate_token: intermediate ? intermediate.contractAddress : null,
    intermediate_token_amount_min: amounts.intermediate ? amounts.intermediate.minLots.toString() : null,
    intermediate_token_amount_max: amounts.intermediate ? amounts.intermediate.maxLots.toString() : null,
    intermediate_token_decimals: intermediate ? intermediate.decimals : null,
    source_amount_lots: parsed.lots.toString(),
    source_amount_decimals: source.decimals,
    min_dest_amount_lots: amounts.minDestLots.toString(),
    max_dest_amount_lots: amounts.maxDestLots.toString(),
    dest_amount_decimals: dest.decimals,
    slippage_bps: String(Number(request.slippageBps)),
    expiry: expiryMs,
    swap_type: "standard",
  };
  await core.store.insertQuote({
    id,
    wire,
    expiryMs: wire.expiry as number,
    retailUserId: request.retailUserId ?? null,
    usedByIntent: null,
    partnerId: request.partnerId,
    createdAtMs: now,
  });
  return wire;
}
