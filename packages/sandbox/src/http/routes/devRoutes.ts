import { Hono } from "hono";
import type { Json } from "../../legs/types.js";
import { formatLots } from "../../quotes/formatLots.js";
import { parseDecimalAmount } from "../../quotes/parseDecimalAmount.js";
import { callLeg } from "../../service/callLeg.js";
import type { Core } from "../../service/core.js";
import type { ChainInfo, Faults } from "../../types.js";
import { createBadRequestError, createIntentNotFoundError } from "../apiError.js";
import { isUuid } from "../isUuid.js";
import { BalanceQuerySchema } from "../wire/querySchemas.js";
import { readBody } from "../wire/readBody.js";
import { readQuery } from "../wire/readQuery.js";
import { ClockRequestSchema, FaucetRequestSchema, FaultsRequestSchema } from "../wire/requestSchemas.js";
import { registerSmartAccountRoutes } from "./smartAccountRoutes.js";

/** How far `POST /sandbox/clock` may move the sandbox clock ahead, in all: 100 years. */
export const MAX_CLOCK_OFFSET_MS = 100 * 365 * 24 * 3600 * 1000;

/** What the dev endpoints act on. */
export interface DevControls {
  chains(): ChainInfo[];
  advanceClock(secs: number): Promise<void>;
  clockOffsetMs(): number;
  faults(): Faults;
  setFaults(faults: Partial<Faults>): Faults;
  /** What this sandbox resolves: its engines, whether it holds the resolver lock, intents paused on other engines. */
  status(): Promise<Record<string, Json>>;
}

/** A 400 of the dev endpoints (entity `Other`). */
const bad = (code: string, message: string) => createBadRequestError(code, message, "Other");

/** The leg of `networkId` and its token `token` (a contract address or a symbol); 400 when either is unknown. */
function findLegAndToken(core: Core, networkId: number, token: string) {
  const leg = core.legs.get(networkId);
  if (!leg) throw createBadRequestError("UNKNOWN_NETWORK", `No network ${networkId}.`, "Network");
  const found =
    core.findToken(networkId, token) ??
    core.tokens.find((t) => t.networkId === networkId && t.symbol === token);
  if (!found) throw createBadRequestError("UNKNOWN_TOKEN", `No such token on network ${networkId}.`, "Token");
  return { leg, token: found };
}

/** `GET /sandbox/intents/{id}`: why an intent is where it is, the resolver's bookkeeping (never the secret). */
function registerIntentInspection(routes: Hono, core: Core): void {
  routes.get("/intents/:intent_id", async (c) => {
    const id = c.req.param("intent_id");
    const row = isUuid(id) ? await core.store.getIntent(id.toLowerCase()) : undefined;
    if (!row) throw createIntentNotFoundError();
    return c.json({
      intent_id: row.id,
      status: row.status,
      pending_step: row.pendingStep,
      last_error: row.lastError,
      deadline_secs: row.deadlineSecs,
      delivered_amount_lots: row.deliveredAmountLots,
      refund_tx: row.refundTx,
      approval_mechanism: row.approvalMechanism,
      leg_data: row.legData,
    });
  });
}

/** `POST /sandbox/faucet` (mint test tokens to an address) and `GET /sandbox/balance`. */
function registerFunds(routes: Hono, core: Core): void {
  routes.post("/faucet", async (c) => {
    const body = await readBody({ c, schema: FaucetRequestSchema, entity: "Other" });
    const { network_id: networkId, address } = body;
    const { leg, token } = findLegAndToken(core, networkId, body.token);
    if (!leg.isValidAddress(address))
      throw bad("INVALID_ADDRESS", `Not a valid address on network ${networkId}.`);
    const amount = parseDecimalAmount({ text: body.amount, decimals: token.decimals });
    if (!amount.ok) throw bad("INVALID_AMOUNT", `\`amount\` is invalid (${amount.problem}).`);
    const { txHash } = await callLeg({
      entity: "Other",
      call: () => leg.faucet({ address, token: token.contractAddress, amountLots: amount.lots }),
    });
    return c.json({
      network_id: networkId,
      address,
      token: token.contractAddress,
      amount_lots: amount.lots.toString(),
      tx_hash: txHash,
    });
  });

  routes.get("/balance", async (c) => {
    const query = readQuery({ c, schema: BalanceQuerySchema, entity: "Other" });
    const address = query.address;
    const { leg, token } = findLegAndToken(core, Number(query.network_id), query.token);
    if (!leg.isValidAddress(address)) throw bad("INVALID_ADDRESS", "Not a valid address on this network.");
    const lots = await callLeg({
      entity: "Other",
      call: () => leg.balanceOf(address, token.contractAddress),
    });
    return c.json({
      network_id: token.networkId,
      address,
      token: token.contractAddress,
      symbol: token.symbol,
      decimals: token.decimals,
      balance_lots: lots.toString(),
      balance: formatLots({ lots, decimals: token.decimals }),
    });
  });
}

/** `GET`/`POST /sandbox/clock` (move the sandbox clock forward) and `GET`/`POST /sandbox/faults`. */
function registerClockAndFaults(routes: Hono, core: Core, dev: DevControls): void {
  const clockBody = () => ({ now_ms: core.clock.nowMs(), offset_ms: dev.clockOffsetMs() });
  routes.get("/clock", (c) => c.json(clockBody()));
  routes.post("/clock", async (c) => {
    const secs = (await readBody({ c, schema: ClockRequestSchema, entity: "Other" })).advance_secs;
    // Times are stored as bigint ms and handled as JS numbers and Dates: keep the clock far inside both ranges.
    if (dev.clockOffsetMs() + secs * 1000 > MAX_CLOCK_OFFSET_MS)
      throw bad("CLOCK_OUT_OF_RANGE", "The sandbox clock can move at most 100 years ahead in all.");
    await dev.advanceClock(secs);
    return c.json(clockBody());
  });

  routes.get("/faults", (c) => c.json(dev.faults()));
  routes.post("/faults", async (c) => {
    const changes = await readBody({
      c,
      schema: FaultsRequestSchema,
      entity: "Other",
      objectMessage: "A JSON object is required.",
    });
    return c.json(dev.setFaults(changes));
  });
}

/** The `/sandbox/*` dev endpoints: chains, status, intent inspection, faucet, balance, clock and faults. */
export function createDevRoutes({ core, dev }: { core: Core; dev: DevControls }): Hono {
  const routes = new Hono();
  routes.get("/chains", (c) => c.json(dev.chains()));
  routes.get("/status", async (c) => c.json(await dev.status()));
  registerIntentInspection(routes, core);
  registerFunds(routes, core);
  registerClockAndFaults(routes, core, dev);
  registerSmartAccountRoutes(routes, core);
  return routes;
}
