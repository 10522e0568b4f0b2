import type { Hono } from "hono";
import { callLeg } from "../../service/callLeg.js";
import type { Core } from "../../service/core.js";
import { createBadRequestError } from "../apiError.js";
import { readBody } from "../wire/readBody.js";
import { SmartAccountRequestSchema } from "../wire/requestSchemas.js";

const ZERO_SALT = `0x${"0".repeat(64)}`;

/**
 * `POST /sandbox/smart-accounts`: `{ network_id, owner, salt?, deploy? }` -> the sandbox smart account (ERC-1271)
 * of `owner` on a permit2 network: `address`, `factory`, `factory_data` (the ERC-6492 factory call), `deployed`,
 * `tx_hash`. With `deploy: false` (default `true`) the account stays counterfactual; fund it with
 * `POST /sandbox/faucet` either way.
 */
export function registerSmartAccountRoutes(routes: Hono, core: Core): void {
  routes.post("/smart-accounts", async (c) => {
    const body = await readBody({ c, schema: SmartAccountRequestSchema, entity: "Other" });
    const networkId = body.network_id;
    const leg = core.legs.get(networkId);
    if (!leg) throw createBadRequestError("UNKNOWN_NETWORK", `No network ${networkId}.`, "Network");
    const smartAccount = leg.smartAccount?.bind(leg);
    if (!smartAccount)
      throw createBadRequestError("UNSUPPORTED", `Network ${networkId} has no smart accounts.`, "Network");
    const request = { owner: body.owner, salt: body.salt ?? ZERO_SALT, deploy: body.deploy ?? true };
    const account = await callLeg({ entity: "Other", call: () => smartAccount(request) });
    return c.json({ network_id: networkId, ...account });
  });
}
