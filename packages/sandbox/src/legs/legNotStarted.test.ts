import { describe, expect, test } from "vitest";
import { SANDBOX_NETWORKS } from "../config/networks.js";
import { resolveLegFactory } from "./registry.js";
import { type ChainLeg, type LegIntent, LegRejection } from "./types.js";

const intent: LegIntent = {
  intentId: "00000000-0000-4000-8000-000000000001",
  sourceToken: "0x0000000000000000000000000000000000000001",
  sourceAmountLots: 1n,
  destChain: 1,
  destToken: "0x0000000000000000000000000000000000000001",
  minDestAmountLots: 1n,
  maxDestAmountLots: 1n,
  userSourceAddress: "0x0000000000000000000000000000000000000002",
  userSourcePublicKey: null,
  userDestinationAddress: "0x0000000000000000000000000000000000000002",
  refundAddress: "0x0000000000000000000000000000000000000002",
  secretHash: `0x${"11".repeat(32)}`,
  deadlineSecs: 2_000_000_000,
};

/**
 * What each step of a leg that was never started does (deposit, claim, refund on the source side, the inventory the
 * resolver reads before it delivers), as `LegRejection` codes (or the error's class name). */
async function outcomes(leg: ChainLeg): Promise<string[]> {
  // A token the leg knows when its catalogue needs no engine (Bitcoin), so the check that fails is the leg's state.
  const token = leg.type === "BITCOIN" ? leg.tokens()[0]!.contractAddress : intent.destToken;
  const calls: (() => Promise<unknown>)[] = [
    () => leg.deposit(intent, {}),
    () => leg.claim(intent, {}, new Uint8Array(32)),
    () => leg.refund(intent, {}),
    () => leg.inventory(token),
  ];
  const seen: string[] = [];
  for (const call of calls) {
    const error = await call().then(
      () => undefined,
      (e: unknown) => e,
    );
    seen.push(error instanceof LegRejection ? error.code : String((error as Error)?.name));
  }
  return seen;
}

describe.each(SANDBOX_NETWORKS.map((n) => [n.name, n] as const))(
  "the %s leg, never started",
  (_name, network) => {
    test("refuses every step with the same LegRejection code, LEG_NOT_STARTED", async () => {
      const factory = await resolveLegFactory({ type: network.type, injected: undefined });
      const leg = await factory({
        network,
        clock: { nowMs: () => 0 },
        dataDir: undefined,
        seed: new Uint8Array(32),
        log: () => {},
      });
      expect(await outcomes(leg)).toEqual(Array(4).fill("LEG_NOT_STARTED"));
    });
  },
);
