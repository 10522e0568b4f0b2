/**
 * End to end through HTTP: EVM -> Tron and Tron -> EVM swaps driven with @swapintent/client and signed with
 * @swapintent/permit2 only (no hand-built typed data), executed by the real Permit2 on the sandbox's anvil
 * engines, until the intent is Fulfilled and the user holds the destination tokens.
 */
import { verifyPermit2Approval } from "@swapintent/permit2";
import { signPermit2Approval } from "@swapintent/permit2/evm";
import { signTronPermit2Approval } from "@swapintent/permit2/tron";
import { TronWeb } from "tronweb";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import {
  expectWithinQuote,
  fundEvmUser,
  givePermit2Allowance,
  readLegFacts,
  useFlowSandbox,
  waitForOutcome,
} from "./support/flows.js";

const flow = useFlowSandbox({ networkIds: [1, 3], apiKey: "flow-permit2-e2e" });

/** Gives Permit2 the ERC-20 allowance when the package's helper says it is missing (the wallet's job). */
async function ensureAllowance(networkId: number, privateKey: Hex, token: string, amountLots: bigint) {
  const receipt = await givePermit2Allowance({
    leg: flow.sandbox.leg(networkId),
    privateKey,
    token,
    amountLots,
  });
  if (receipt) expect(receipt.status).toBe("success");
}

describe("permit2 swaps end to end with @swapintent/client + @swapintent/permit2", () => {
  it("EVM -> Tron: USDC on network 1 to USDT on network 3 reaches Fulfilled", async () => {
    const { sandbox, client } = flow;
    const source = readLegFacts({ sandbox, networkId: 1 });
    const dest = readLegFacts({ sandbox, networkId: 3 });
    const tronRecipient = TronWeb.address.fromPrivateKey(generatePrivateKey().slice(2)) as string;
    const usdc = source.tokens.USDC as string;
    const { privateKey, account: user } = await fundEvmUser({
      leg: sandbox.leg(1),
      token: usdc,
      amountLots: 50_000_000n,
      approvePermit2: false,
    });

    const quote = await client.getBestQuote({
      sourceChain: 1,
      sourceToken: usdc,
      destChain: 3,
      destToken: dest.tokens.USDT as string,
      amount: "20",
      slippageBps: 50,
    });
    const intent = await client.createIntent({
      quote,
      refundAddress: user.address,
      userSourceAddress: user.address,
      userDestinationAddress: tronRecipient,
    });
    const verified = verifyPermit2Approval({
      intent,
      quote,
      expected: {
        chainId: source.info.chainId as number,
        recipient: tronRecipient,
        spender: source.info.escrowAddress as string,
      },
      allowedPermit2Addresses: [source.info.permit2Address as string],
    });
    await ensureAllowance(1, privateKey, usdc, verified.summary.amountLots);

    const { approval } = await signPermit2Approval({
      intent,
      quote,
      expected: {
        chainId: source.info.chainId as number,
        recipient: tronRecipient,
        owner: user.address,
        spender: source.info.escrowAddress as string,
      },
      allowedPermit2Addresses: [source.info.permit2Address as string],
      signer: user,
    });
    await client.submitApproval({ intentId: intent.intentId, approval });
    const final = await waitForOutcome({ client, intentId: intent.intentId, timeoutMs: 45_000 });
    expect(final.status).toBe("Fulfilled");

    expect(await sandbox.leg(1).balanceOf(user.address, usdc)).toBe(50_000_000n - quote.sourceAmountLots);
    expectWithinQuote(await sandbox.leg(3).balanceOf(tronRecipient, dest.tokens.USDT as string), quote);
  });

  it("Tron -> EVM: USDT on network 3 to USDC on network 1 reaches Fulfilled", async () => {
    const { sandbox, client } = flow;
    const source = readLegFacts({ sandbox, networkId: 3 });
    const dest = readLegFacts({ sandbox, networkId: 1 });
    const evmRecipient = privateKeyToAccount(generatePrivateKey()).address;
    const usdt = source.tokens.USDT as string;
    const { privateKey, address: user } = await fundEvmUser({
      leg: sandbox.leg(3),
      token: usdt,
      amountLots: 50_000_000n,
      approvePermit2: false,
    });

    const quote = await client.getBestQuote({
      sourceChain: 3,
      sourceToken: usdt,
      destChain: 1,
      destToken: dest.tokens.USDC as string,
      amount: "15",
      slippageBps: 50,
    });
    const intent = await client.createIntent({
      quote,
      refundAddress: user,
      userSourceAddress: user,
      userDestinationAddress: evmRecipient,
    });
    await ensureAllowance(3, privateKey, usdt, quote.sourceAmountLots);

    const { approval, verified } = await signTronPermit2Approval({
      intent,
      quote,
      expected: {
        chainId: source.info.chainId as number,
        recipient: evmRecipient,
        owner: user,
        spender: source.info.escrowAddress as string,
      },
      allowedPermit2Addresses: [source.info.permit2Address as string],
      privateKey,
    });
    expect(verified.typedData.domain.verifyingContract).toBe(source.info.permit2Address);
    await client.submitApproval({ intentId: intent.intentId, approval });
    const final = await waitForOutcome({ client, intentId: intent.intentId, timeoutMs: 45_000 });
    expect(final.status).toBe("Fulfilled");

    expect(await sandbox.leg(3).balanceOf(user, usdt)).toBe(50_000_000n - quote.sourceAmountLots);
    expectWithinQuote(await sandbox.leg(1).balanceOf(evmRecipient, dest.tokens.USDC as string), quote);
  });
});
