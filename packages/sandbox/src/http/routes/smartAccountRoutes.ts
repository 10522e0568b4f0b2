import type { Hono } from "hono";
import { callLeg } from "../../service/callLeg.js";
import type { Core } from "../../service/core.js";
import { createBadRequestError } from "../apiError.js";
import { readFields } from "../readFields.js";
import { readJsonBody } from "../readJsonBody.js";

const ZERO_SALT = `0x${"0".repeat(64)}`;

/**
 * `POST /sandbox/smart-accounts`: `{ network_id, owner, salt?, deploy? }` -> the sandbox smart account (ERC-1271)
 * of `owner` on a permit2 network: `address`, `factory`, `factory_data` (the ERC-6492 factory call), `deployed`,
 * `tx_hash`. With `deploy: false` (default `true`) the account stays counterfactual; fund it with
 * `POST /sandbox/faucet` either way.
 */
export function registerSmartAccountRoutes(routes: Hono, core: Core): void {
  routes.post("/smart-accounts", async (c) => {
    const body = await readJsonBody(c, "Other");
    const f = readFields({ body, entity: "Other" });
    const networkId = f.integer("network_id");
    const owner = f.string("owner");
    const salt = f.optionalString("salt") ?? ZERO_SALT;
    const deploy = (body as { deploy?: unknown }).deploy ?? true;
    if (!/^0x[0-9a-fA-F]{64}$/.test(salt))
      throw createBadRequestError("INVALID_FIELD", "`salt` must be 32 bytes of 0x hex.", "Other");
    if (typeof deploy !== "boolean")
      throw createBadRequestError("INVALID_FIELD", "`deploy` must be a boolean.", "Other");
    const leg = core.legs.get(networkId);
    if (!leg) throw createBadRequestError("UNKNOWN_NETWORK", `No network ${networkId}.`, "Network");
    const smartAccount = leg.smartAccount?.bind(leg);
    if (!smartAccount)
      throw createBadRequestError("UNSUPPORTED", `Network ${networkId} has no smart accounts.`, "Network");
    const account = await callLeg({ entity: "Other", call: () => smartAccount({ owner, salt, deploy }) });
    return c.json({ network_id: networkId, ...account });
  });
}
