/**
 * The query parameters of the API's and the dev endpoints' GET routes: each parameter's check (with the exact 400
 * code and message it has always had) and its JSON Schema, in one definition. `readQuery` reads them; the OpenAPI
 * document lists them as the operation's parameters.
 */
import { z } from "zod";
import type { WireIssueParams } from "./bodyFields.js";

/** Default and maximum page size. */
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** A query value checked by `test` (undefined when absent), refused with `params`; `json` is its JSON Schema. */
const queryValue = <T>(
  test: (value: string) => boolean,
  parse: (value: string | undefined) => T,
  params: WireIssueParams,
  json: Record<string, unknown>,
) =>
  z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      if (value !== undefined && !test(value))
        ctx.addIssue({ code: "custom", message: params.message ?? params.code, params });
    })
    .transform(parse)
    .meta(json);

const pagination = {
  limit: queryValue(
    (v) => /^\d{1,6}$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_LIMIT,
    (v) => (v === undefined ? DEFAULT_LIMIT : Number(v)),
    { code: "INVALID_PAGINATION", message: `\`limit\` must be an integer from 1 to ${MAX_LIMIT}.` },
    { type: "integer", minimum: 1, maximum: MAX_LIMIT, description: `Page size (default ${DEFAULT_LIMIT}).` },
  ),
  offset: queryValue(
    (v) => /^\d{1,9}$/.test(v),
    (v) => (v === undefined ? 0 : Number(v)),
    { code: "INVALID_PAGINATION", message: "`offset` must be an integer >= 0." },
    { type: "integer", minimum: 0, maximum: 999_999_999, description: "Items to skip (default 0)." },
  ),
};

/** `GET /affiliate/v1/tokens`: a page of the catalogue, of one network, searched. */
export const TokensQuerySchema = z.object({
  ...pagination,
  network_id: queryValue(
    (v) => /^\d{1,9}$/.test(v),
    (v) => (v === undefined ? undefined : Number(v)),
    { code: "INVALID_FIELD", message: "`network_id` must be an integer.", entity: "Network" },
    { type: "integer", minimum: 0, maximum: 999_999_999, description: "Only this network." },
  ),
  q: z
    .string()
    .optional()
    .meta({ description: "Case-insensitive search over symbol, name and contract address." }),
});

/** `GET /affiliate/v1/swaps/history`: a page of the partner's swaps of some wallets or of a retail user. */
export const HistoryQuerySchema = z.object({
  ...pagination,
  wallet: z
    .array(z.string())
    .transform((values) => values.filter((w) => w !== "").map((w) => w.toLowerCase()))
    .meta({ description: "Source or destination address; repeat the parameter for several wallets." })
    .optional(),
  retail_id: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .meta({ description: "Retail user id given with the quote or intent." })
    .optional(),
  active: queryValue(
    (v) => ["true", "false", "1", "0"].includes(v),
    (v) => v === "true" || v === "1",
    { code: "INVALID_FIELD", message: "`active` must be true or false.", entity: "Swap" },
    {
      type: "string",
      enum: ["true", "false", "1", "0"],
      description: "true: only swaps not in a final state.",
    },
  ),
});

const balanceParams: WireIssueParams = {
  code: "MISSING_FIELD",
  message: "Give `network_id`, `address` and `token`.",
};
const requiredQueryValue = (test: (value: string) => boolean, json: Record<string, unknown>) =>
  z
    .unknown()
    .superRefine((value, ctx) => {
      if (typeof value !== "string" || !test(value))
        ctx.addIssue({ code: "custom", message: balanceParams.message ?? "", params: balanceParams });
    })
    .transform((value) => value as string)
    .meta(json);

/** `GET /sandbox/balance`: one address's balance of one token. */
export const BalanceQuerySchema = z.object({
  network_id: requiredQueryValue((v) => /^\d{1,9}$/.test(v), {
    type: "integer",
    minimum: 0,
    maximum: 999_999_999,
    description: "The network (service id).",
  }),
  address: requiredQueryValue((v) => v !== "", {
    type: "string",
    minLength: 1,
    description: "An address on that network.",
  }),
  token: requiredQueryValue((v) => v !== "", {
    type: "string",
    minLength: 1,
    description: "A token's contract address (mint, `btc`) or its symbol.",
  }),
});
