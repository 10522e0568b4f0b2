/**
 * Bitcoin <-> Solana through the whole sandbox over HTTP, signed with @swapintent/bitcoin and @swapintent/solana:
 * the Bitcoin side is checked by bitcore-lib's interpreter on the sandbox ledger, the Solana side runs on litesvm.
 */
import { Keypair } from "@solana/web3.js";
import { signHtlcPsbt } from "@swapintent/bitcoin";
import { signCosignTransaction } from "@swapintent/solana";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import {
  createBitcoinUser,
  createSolanaUser,
  expectWithinQuote,
  FLOW_BACKENDS,
  readLegFacts,
  useFlowSandbox,
  waitForOutcome,
} from "./support/flows.js";

// One full flow per approval mechanism runs on both backends (the store on PGlite and on a PostgreSQL server).
describe.each(FLOW_BACKENDS)("on %s", (backend) => {
  const flow = useFlowSandbox({ networkIds: [4, 5], apiKey: "flow-bitcoin-solana", backend });

  describe("Bitcoin <-> Solana through @swapintent/client", { timeout: 60_000 }, () => {
    it("Solana USDC -> BTC reaches Fulfilled: the resolver pays BTC with an interpreter-checked transaction", async () => {
      const { sandbox, client } = flow;
      const { info: solanaInfo, tokens } = readLegFacts({ sandbox, networkId: 5 });
      const usdc = tokens.USDC!;
      const btc = createBitcoinUser();
      const { user, address, publicKey } = await createSolanaUser({
        leg: sandbox.leg(5),
        token: usdc,
        amountLots: 40_000_000n,
      });
      const quote = await client.getBestQuote({
        sourceChain: 5,
        sourceToken: usdc,
        destChain: 4,
        destToken: "btc",
        amount: "30",
        slippageBps: 50,
      });
      const intent = await client.createIntent({
        quote,
        refundAddress: address,
        userSourceAddress: address,
        userDestinationAddress: btc.p2wpkh,
        userSourcePublicKey: publicKey,
      });
      const { approval } = await signCosignTransaction({
        intent,
        quote,
        escrow: { owner: solanaInfo.escrowOwner as string },
        signer: user,
      });
      await client.submitApproval({ intentId: intent.intentId, approval });
      const final = await waitForOutcome({ client, intentId: intent.intentId, timeoutMs: 30_000 });
      expect(final.status).toBe("Fulfilled");
      expectWithinQuote(await sandbox.leg(4).balanceOf(btc.p2wpkh, "btc"), quote);
      expect(await sandbox.leg(5).balanceOf(address, usdc)).toBe(40_000_000n - quote.sourceAmountLots);
    });

    it("BTC (P2WPKH) -> Solana USDC reaches Fulfilled", async () => {
      const { sandbox, client } = flow;
      const usdc = readLegFacts({ sandbox, networkId: 5 }).tokens.USDC!;
      const btc = createBitcoinUser();
      const recipient = Keypair.generate().publicKey.toBase58();
      await sandbox.leg(4).faucet({ address: btc.p2wpkh, token: "btc", amountLots: 90_000n });
      const quote = await client.getBestQuote({
        sourceChain: 4,
        sourceToken: "btc",
        destChain: 5,
        destToken: usdc,
        amount: "0.0005",
        slippageBps: 50,
      });
      const intent = await client.createIntent({
        quote,
        refundAddress: btc.p2wpkh,
        userSourceAddress: btc.p2wpkh,
        userDestinationAddress: recipient,
        userSourcePublicKey: btc.publicKey,
      });
      const { approval, verified } = await signHtlcPsbt({
        ecc,
        intent,
        quote,
        userPublicKey: btc.publicKey,
        signer: btc.key,
      });
      expect(verified.inputs).toEqual([{ index: 0, kind: "p2wpkh" }]);
      await client.submitApproval({ intentId: intent.intentId, approval });
      const final = await waitForOutcome({ client, intentId: intent.intentId, timeoutMs: 30_000 });
      expect(final.status).toBe("Fulfilled");
      expect(await sandbox.leg(4).balanceOf(btc.p2wpkh, "btc")).toBe(90_000n - 50_000n - verified.feeLots);
      expectWithinQuote(await sandbox.leg(5).balanceOf(recipient, usdc), quote);
    });
  });
});
