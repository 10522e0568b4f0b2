/**
 * runRoute's failure paths, with a stand-in client (the happy paths run against the real sandbox in demo.test.ts):
 * a failure names the step it happened at, quote refreshes stop at the limit, and nothing after a failed step runs.
 */
import type { Intent, Network, Quote, SwapIntentClient, TokenInfo } from "@swapintent/client";
import { describe, expect, it, vi } from "vitest";
import type { ProgressEvent } from "../src/report.js";
import { type Route, runRoute } from "../src/runRoute.js";
import type { DemoWallet } from "../src/wallets/types.js";

const network = (id: number, type: string) => ({ id, name: `net${id}`, type }) as unknown as Network;
const token = (symbol: string) => ({ symbol, contractAddress: `${symbol}-address` }) as unknown as TokenInfo;

function wallet(address: string, approve: DemoWallet["approve"]) {
  const prepare = vi.fn(async () => null);
  const w: DemoWallet = { type: "EVM", address, publicKeyHex: undefined, gasFunding: null, prepare, approve };
  return { wallet: w, prepare };
}

function quote(expiryMs: number): Quote {
  return {
    id: `q-${expiryMs}`,
    intermediateToken: null,
    sourceAmountLots: 5_000_000n,
    sourceAmountDecimals: 6,
    minDestAmountLots: 4_900_000n,
    destAmountDecimals: 6,
    expiryMs,
  } as Quote;
}

const intent = { intentId: "9b8a7c6d-5e4f-4a3b-9c2d-1e0f2a3b4c5d", approvalMechanism: "permit2" } as Intent;

function setup(options: { expiryMs: number; approve?: DemoWallet["approve"] }) {
  const approve = vi.fn(options.approve ?? (async () => ({ approval: null, summary: ["would sign"] })));
  const source = wallet("0xsource", approve);
  const client = {
    getBestQuote: vi.fn(async () => quote(options.expiryMs)),
    createIntent: vi.fn(async () => intent),
    submitApproval: vi.fn(async () => null),
    waitForIntent: vi.fn(async () => {
      throw Object.assign(new Error("no terminal status"), { code: "WAIT_TIMEOUT" });
    }),
  };
  const route: Route = {
    name: "stand-in",
    from: { network: network(1, "EVM"), token: token("USDC"), wallet: source.wallet },
    to: { network: network(5, "SOLANA"), token: token("USDT"), wallet: wallet("dest", approve).wallet },
    amount: "5",
    slippageBps: 50,
  };
  const events: ProgressEvent[] = [];
  const run = (extra: { dryRun?: boolean; maxQuoteRefreshes?: number } = {}) =>
    runRoute({
      client: client as unknown as SwapIntentClient,
      route,
      dev: null,
      dryRun: extra.dryRun ?? false,
      onProgress: (event) => events.push(event),
      ...(extra.maxQuoteRefreshes === undefined ? {} : { maxQuoteRefreshes: extra.maxQuoteRefreshes }),
    });
  return { client, approve, prepare: source.prepare, events, run };
}

describe("runRoute failures", () => {
  it("refreshes a locally expired quote up to maxQuoteRefreshes, then fails at the intent step", async () => {
    const { client, approve, events, run } = setup({ expiryMs: 0 });
    const result = await run({ maxQuoteRefreshes: 2 });
    expect(client.getBestQuote).toHaveBeenCalledTimes(3);
    expect(client.createIntent).not.toHaveBeenCalled();
    expect(approve).not.toHaveBeenCalled();
    expect(result.quoteRefreshes).toBe(2);
    expect(result.ok).toBe(false);
    expect(result.finalStatus).toBe("failed at intent");
    expect(result.error).toEqual({ code: "QUOTE_EXPIRED", message: "expired locally" });
    expect(events.filter((e) => e.step.startsWith("quote expired"))).toHaveLength(2);
    expect(events.at(-1)?.step).toBe("FAILED at intent: QUOTE_EXPIRED: expired locally");
  });

  it("names the sign step when the signer refuses, and submits nothing", async () => {
    const refusal = Object.assign(new Error("spender mismatch"), { code: "PERMIT2_SPENDER_MISMATCH" });
    const { client, prepare, run } = setup({
      expiryMs: Date.now() + 60_000,
      approve: async () => {
        throw refusal;
      },
    });
    const result = await run();
    expect(prepare).toHaveBeenCalledOnce();
    expect(client.submitApproval).not.toHaveBeenCalled();
    expect(result.intentId).toBe(intent.intentId);
    expect(result.finalStatus).toBe("failed at sign");
    expect(result.error).toEqual({ code: "PERMIT2_SPENDER_MISMATCH", message: "spender mismatch" });
  });

  it("names the wait step when following the status fails after the approval was submitted", async () => {
    const { client, run } = setup({
      expiryMs: Date.now() + 60_000,
      approve: async () => ({
        approval: { type: "permit2", signedData: `0x${"11".repeat(65)}` },
        summary: ["sign"],
      }),
    });
    const result = await run();
    expect(client.submitApproval).toHaveBeenCalledOnce();
    expect(client.waitForIntent).toHaveBeenCalledOnce();
    expect(result.finalStatus).toBe("failed at wait");
    expect(result.error?.code).toBe("WAIT_TIMEOUT");
  });

  it("a dry run ends after the sign step without submitting", async () => {
    const { client, approve, run } = setup({ expiryMs: Date.now() + 60_000 });
    const result = await run({ dryRun: true });
    expect(approve).toHaveBeenCalledWith(expect.objectContaining({ dryRun: true, recipient: "dest" }));
    expect(client.submitApproval).not.toHaveBeenCalled();
    expect(result.ok).toBe(true);
    expect(result.finalStatus).toBe("DryRun");
    expect(result.summary).toEqual(["would sign"]);
  });
});
