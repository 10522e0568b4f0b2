import type { Permit2Params } from "@swapintent/client";
import { Trx } from "tronweb";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import {
  expectWithinQuote,
  FLOW_BACKENDS,
  fundEvmUser,
  readLegFacts,
  useFlowSandbox,
  waitForOutcome,
} from "./support/flows.js";

// One full flow per approval mechanism runs on both backends (the store on PGlite and on a PostgreSQL server).
describe.each(FLOW_BACKENDS)("on %s", (backend) => {
  const flow = useFlowSandbox({ networkIds: [1, 3], apiKey: "flow-evm-tron-test", backend });

  describe("Tron source through HTTP", () => {
    it("an intent signed with TronWeb over base58 params_to_sign reaches Fulfilled", async () => {
      const { sandbox, client } = flow;
      const tron = sandbox.leg(3);
      const { info, tokens } = readLegFacts({ sandbox, networkId: 3 });
      const { privateKey: pk, address: user } = await fundEvmUser({
        leg: tron,
        token: tokens.USDT as string,
        amountLots: 80_000_000n,
      });

      const evmUser = privateKeyToAccount(generatePrivateKey()).address;
      const destTokens = readLegFacts({ sandbox, networkId: 1 }).tokens;
      const quote = await client.getBestQuote({
        sourceChain: 3,
        sourceToken: tokens.USDT as string,
        destChain: 1,
        destToken: destTokens.USDC as string,
        amount: "30",
        slippageBps: 50,
      });
      const intent = await client.createIntent({
        quote,
        refundAddress: user,
        userSourceAddress: user,
        userDestinationAddress: evmUser,
      });
      if (intent.approvalMechanism !== "permit2") throw new Error("expected a permit2 intent");
      const params: Permit2Params = intent.paramsToSign;
      expect(params.permit2ContractAddress).toBe(info.permit2Address);
      expect(params.escrowContractAddress).toMatch(/^T/);

      const { EIP712Domain: _domain, ...types } = params.additionalData.types;
      const w = params.additionalData.witness as Record<string, string>;
      const signature = Trx._signTypedData(
        params.additionalData.domain as never,
        types as never,
        {
          permitted: { token: quote.sourceToken, amount: quote.sourceAmountLots.toString() },
          spender: params.escrowContractAddress,
          nonce: params.nonce.toString(),
          deadline: String(intent.deadlineSecs),
          witness: w,
        },
        pk.slice(2),
      );
      await client.submitApproval({
        intentId: intent.intentId,
        approval: { type: "permit2", signedData: signature as `0x${string}` },
      });
      const final = await waitForOutcome({ client, intentId: intent.intentId, timeoutMs: 30_000 });
      expect(final.status).toBe("Fulfilled");
      expect(await tron.balanceOf(user, tokens.USDT as string)).toBe(80_000_000n - quote.sourceAmountLots);
      expectWithinQuote(await sandbox.leg(1).balanceOf(evmUser, destTokens.USDC as string), quote);
    });
  });
});
