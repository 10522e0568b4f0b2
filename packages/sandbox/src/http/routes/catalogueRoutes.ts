import type { CatalogueToken, Core } from "../../service/core.js";
import { createBadRequestError } from "../apiError.js";
import { TokensQuerySchema } from "../wire/querySchemas.js";
import { readQuery } from "../wire/readQuery.js";
import type { RegisterRoutes } from "./apiEnv.js";

/** The tokens of the `network_id` filter (all tokens without it); 400 for an unknown network. */
function tokensOfNetwork(core: Core, networkId: number | undefined): readonly CatalogueToken[] {
  if (networkId === undefined) return core.tokens;
  if (!core.findNetwork(networkId))
    throw createBadRequestError(
      "UNKNOWN_NETWORK",
      `Network ${networkId} is not in the catalogue.`,
      "Network",
    );
  return core.tokens.filter((t) => t.networkId === networkId);
}

/** The tokens whose symbol, name or contract address contains `q` (case-insensitive); all without `q`. */
function searchTokens(tokens: readonly CatalogueToken[], q: string | undefined): readonly CatalogueToken[] {
  const needle = q?.trim().toLowerCase();
  if (!needle) return tokens;
  return tokens.filter(
    (t) =>
      t.symbol.toLowerCase().includes(needle) ||
      t.name.toLowerCase().includes(needle) ||
      t.contractAddress.toLowerCase().includes(needle),
  );
}

/** `GET /networks` and `GET /tokens` (paginated, filtered by `network_id` and searched by `q`): the catalogue. */
export const registerCatalogueRoutes: RegisterRoutes = (api, core) => {
  api.get("/networks", (c) =>
    c.json(
      core.networks.map((n) => ({
        id: n.id,
        name: n.name,
        type: n.type,
        supports_optimized_swap: n.supportsOptimizedSwap,
        icon_url: n.iconUrl,
        supports_custom_tokens: n.supportsCustomTokens,
      })),
    ),
  );

  api.get("/tokens", (c) => {
    const query = readQuery({ c, schema: TokensQuerySchema, entity: "Token" });
    const { limit, offset } = query;
    const tokens = searchTokens(tokensOfNetwork(core, query.network_id), query.q);
    const total = tokens.length;
    return c.json({
      data: tokens.slice(offset, offset + limit).map((t) => ({
        network_id: t.networkId,
        name: t.name,
        contract_address: t.contractAddress,
        symbol: t.symbol,
        icon_url: t.iconUrl,
        wrapped_token_address: t.wrappedTokenAddress,
      })),
      pagination: { limit, offset, pages: Math.ceil(total / limit), total },
    });
  });
};
