import type { Permit2Params } from "@swapintent/client";
import type { Address, Hex } from "viem";
import { describe, expect, it } from "vitest";
import { SANDBOX_NETWORKS } from "../src/config/networks.js";
import { buildPermitWitnessTypedData } from "./legs-evm-helpers.js";
import {
  expectWithinQuote,
  fundEvmUser,
  postRawApproval,
  readLegFacts,
  useFlowSandbox,
  waitForClaim,
  waitForOutcome,
} from "./support/flows.js";

const API_KEY = "flow-evm-test";
const flow = useFlowSandbox({
  networkIds: SANDBOX_NETWORKS.filter((n) => n.type === "EVM").map((n) => n.id),
  apiKey: API_KEY,
});

/** The EIP-712 request a wallet builds from params_to_sign and the quote (plain viem, no swapintent signer). */
function typedDataFor(
  params: Permit2Params,
  quote: { sourceToken: string; sourceAmountLots: bigint },
  deadlineSecs: number,
) {
  return buildPermitWitnessTypedData({
    domain: params.additionalData.domain,
    types: params.additionalData.types,
    witness: params.additionalData.witness,
    sourceToken: quote.sourceToken,
    amount: quote.sourceAmountLots,
    spender: params.escrowContractAddress,
    nonce: params.nonce,
    deadlineSecs,
  }) as never;
}

/** A user on network 1 with gas, 100 USDC and the Permit2 allowance. */
async function fundedUser() {
  const { tokens } = readLegFacts({ sandbox: flow.sandbox, networkId: 1 });
  const { account } = await fundEvmUser({
    leg: flow.sandbox.leg(1),
    token: tokens.USDC as string,
    amountLots: 100_000_000n,
  });
  return { account, tokens };
}

async function quoteAndIntent(user: Address, sourceToken: string) {
  const { client } = flow;
  const destTokens = readLegFacts({ sandbox: flow.sandbox, networkId: 2 }).tokens;
  const quote = await client.getBestQuote({
    sourceChain: 1,
    sourceToken,
    destChain: 2,
    destToken: destTokens.USDT as string,
    amount: "25",
    slippageBps: 50,
  });
  const intent = await client.createIntent({
    quote,
    refundAddress: user,
    userSourceAddress: user,
    userDestinationAddress: user,
  });
  if (intent.approvalMechanism !== "permit2") throw new Error("expected a permit2 intent");
  return { quote, intent, destToken: destTokens.USDT as string };
}

describe("EVM source through HTTP", () => {
  it("an intent signed with plain viem reaches Fulfilled: the escrow pays the resolver, the user receives on network 2", async () => {
    const { sandbox, client } = flow;
    const { account, tokens } = await fundedUser();
    const { quote, intent, destToken } = await quoteAndIntent(account.address, tokens.USDC as string);
    expect(intent.paramsToSign.permit2ContractAddress).toBe(sandbox.leg(1).info().permit2Address);

    const signature = await account.signTypedData(
      typedDataFor(intent.paramsToSign, quote, intent.deadlineSecs),
    );
    await client.submitApproval({
      intentId: intent.intentId,
      approval: { type: "permit2", signedData: signature },
    });
    const final = await waitForOutcome({ client, intentId: intent.intentId, timeoutMs: 30_000 });
    expect(final.status).toBe("Fulfilled");

    expect(await sandbox.leg(1).balanceOf(account.address, tokens.USDC as string)).toBe(
      100_000_000n - quote.sourceAmountLots,
    );
    expectWithinQuote(await sandbox.leg(2).balanceOf(account.address, destToken), quote);
    // The resolver claims the escrow after delivering (Fulfilled comes first): wait for the claim's swap_tx.
    const claimed = await waitForClaim({ client, intentId: intent.intentId });
    expect(claimed.swapMetadata.swapTx).not.toBeNull();
    const escrow = sandbox.leg(1).info().escrowAddress as string;
    expect(await sandbox.leg(1).balanceOf(escrow, tokens.USDC as string)).toBe(0n);
  });

  it("a tampered signature gets 422 and the intent stays unapproved", async () => {
    const { sandbox, client } = flow;
    const { account, tokens } = await fundedUser();
    const { quote, intent } = await quoteAndIntent(account.address, tokens.USDC as string);
    const signature = await account.signTypedData(
      typedDataFor(intent.paramsToSign, quote, intent.deadlineSecs),
    );
    const tampered =
      `${signature.slice(0, 12)}${signature[12] === "0" ? "1" : "0"}${signature.slice(13)}` as Hex;
    const response = await postRawApproval({
      sandbox,
      apiKey: API_KEY,
      intentId: intent.intentId,
      body: { type: "permit2", signed_data: tampered },
    });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { code: number; message: string };
    expect(body.code).toBe(422);
    expect((await client.getIntentStatus({ intentId: intent.intentId })).status).toBe("Initiated");
    expect(await sandbox.leg(1).balanceOf(account.address, tokens.USDC as string)).toBe(100_000_000n);
  });

  it("when delivery fails the resolver refunds: the intent ends Refunded and the user has the tokens back", async () => {
    const { sandbox, client } = flow;
    const { account, tokens } = await fundedUser();
    const { quote, intent } = await quoteAndIntent(account.address, tokens.USDC as string);
    const signature = await account.signTypedData(
      typedDataFor(intent.paramsToSign, quote, intent.deadlineSecs),
    );
    sandbox.setFaults({ fail_delivery: true });
    try {
      await client.submitApproval({
        intentId: intent.intentId,
        approval: { type: "permit2", signedData: signature },
      });
      const final = await waitForOutcome({ client, intentId: intent.intentId, timeoutMs: 30_000 });
      expect(final.status).toBe("Refunded");
    } finally {
      sandbox.setFaults({ fail_delivery: false });
    }
    expect(await sandbox.leg(1).balanceOf(account.address, tokens.USDC as string)).toBe(100_000_000n);
    expect(
      await sandbox.leg(1).balanceOf(sandbox.leg(1).info().escrowAddress as string, tokens.USDC as string),
    ).toBe(0n);
  });
});
