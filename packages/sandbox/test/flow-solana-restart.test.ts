/**
 * A Solana swap across a sandbox restart with a data folder: the approval the user signed before the restart is
 * built against litesvm's blockhash, which the leg's snapshot restores, so it still verifies and executes after it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Keypair } from "@solana/web3.js";
import { createClient } from "@swapintent/client";
import { signCosignTransaction } from "@swapintent/solana";
import { describe, expect, it } from "vitest";
import { SANDBOX_NETWORKS } from "../src/config/networks.js";
import { startSandbox } from "../src/index.js";

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
const API_KEY = "flow-solana-restart-test";

describe("Solana across a sandbox restart (dataDir)", { timeout: 120_000 }, () => {
  it("an approval signed before the restart is accepted after it (same litesvm blockhash), and the swap completes", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "swapintent-flow-solana-"));
    const options = {
      dev: true,
      log: () => {},
      resolverIntervalMs: 50,
      dataDir,
      networks: SANDBOX_NETWORKS.filter((n) => n.id === 5),
    };
    let first: Sandbox | undefined;
    let second: Sandbox | undefined;
    try {
      first = await startSandbox(options);
      const api = createClient({ baseUrl: first.url, apiKey: API_KEY });
      const info = first.chains().find((c) => c.network_id === 5)!.info;
      const tokens = info.tokens as Record<string, string>;
      const user = Keypair.generate();
      const address = user.publicKey.toBase58();
      await first.leg(5).faucet({ address, token: tokens.USDC!, amountLots: 40_000_000n });
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
        userSourcePublicKey: Buffer.from(user.publicKey.toBytes()).toString("hex"),
      });
      const signed = await signCosignTransaction({
        intent,
        quote,
        escrow: { owner: info.escrowOwner as string },
        signer: user,
      });
      await first.close();
      first = undefined;

      second = await startSandbox(options);
      const again = createClient({ baseUrl: second.url, apiKey: API_KEY });
      expect(second.chains().find((c) => c.network_id === 5)!.info.escrowOwner).toBe(info.escrowOwner);
      expect(await second.leg(5).balanceOf(address, tokens.USDC!)).toBe(40_000_000n);
      await again.submitApproval({ intentId: intent.intentId, approval: signed.approval });
      const final = await again.waitForIntent({
        intentId: intent.intentId,
        timeoutMs: 30_000,
        intervalMs: 100,
      });
      expect(final.status).toBe("Fulfilled");
      expect(await second.leg(5).balanceOf(address, tokens.USDC!)).toBe(10_000_000n);
      const received = await second.leg(5).balanceOf(address, tokens.wSOL!);
      expect(received).toBeGreaterThanOrEqual(quote.minDestAmountLots);
      expect(received).toBeLessThanOrEqual(quote.maxDestAmountLots);
    } finally {
      await first?.close();
      await second?.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
