/**
 * A Solana swap across a sandbox restart with a data folder: the approval the user signed before the restart is
 * built against litesvm's blockhash, which the leg's snapshot restores, so it still verifies and executes after it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signCosignTransaction } from "@swapintent/solana";
import { describe, expect, it } from "vitest";
import {
  createSolanaUser,
  expectWithinQuote,
  type FlowSandbox,
  startFlowSandbox,
  waitForOutcome,
} from "./support/flows.js";

const API_KEY = "flow-solana-restart-test";

describe("Solana across a sandbox restart (dataDir)", { timeout: 120_000 }, () => {
  it("an approval signed before the restart is accepted after it (same litesvm blockhash), and the swap completes", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "swapintent-flow-solana-"));
    const options = { networkIds: [5], apiKey: API_KEY, dataDir };
    let first: FlowSandbox | undefined;
    let second: FlowSandbox | undefined;
    try {
      first = await startFlowSandbox(options);
      const api = first.client;
      const info = first.sandbox.chains().find((c) => c.network_id === 5)!.info;
      const tokens = info.tokens as Record<string, string>;
      const { user, address, publicKey } = await createSolanaUser({
        leg: first.sandbox.leg(5),
        token: tokens.USDC!,
        amountLots: 40_000_000n,
      });
      const quote = await api.getBestQuote({
        sourceChain: 5,
        sourceToken: tokens.USDC!,
        destChain: 5,
        destToken: tokens.wSOL!,
        amount: "30",
        slippageBps: 100,
      });
      const intent = await api.createIntent({
        quote,
        refundAddress: address,
        userSourceAddress: address,
        userDestinationAddress: address,
        userSourcePublicKey: publicKey,
      });
      const signed = await signCosignTransaction({
        intent,
        quote,
        escrow: { owner: info.escrowOwner as string },
        signer: user,
      });
      await first.sandbox.close();
      first = undefined;

      second = await startFlowSandbox(options);
      const again = second.client;
      expect(second.sandbox.chains().find((c) => c.network_id === 5)!.info.escrowOwner).toBe(
        info.escrowOwner,
      );
      expect(await second.sandbox.leg(5).balanceOf(address, tokens.USDC!)).toBe(40_000_000n);
      await again.submitApproval({ intentId: intent.intentId, approval: signed.approval });
      const final = await waitForOutcome({ client: again, intentId: intent.intentId, timeoutMs: 30_000 });
      expect(final.status).toBe("Fulfilled");
      expect(await second.sandbox.leg(5).balanceOf(address, tokens.USDC!)).toBe(10_000_000n);
      expectWithinQuote(await second.sandbox.leg(5).balanceOf(address, tokens.wSOL!), quote);
    } finally {
      await first?.sandbox.close();
      await second?.sandbox.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
