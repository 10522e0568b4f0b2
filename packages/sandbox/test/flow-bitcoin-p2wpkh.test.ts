import { signHtlcPsbt } from "@swapintent/bitcoin";
import { Psbt, Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { BitcoinLeg } from "../src/legs/bitcoin/index.js";
import {
  createBitcoinUser,
  expectWithinQuote,
  readLegFacts,
  useFlowSandbox,
  waitForClaim,
  waitForOutcome,
} from "./support/flows.js";

const flow = useFlowSandbox({ networkIds: [1, 4], apiKey: "flow-bitcoin-p2wpkh-test" });
const bitcoinLeg = () => flow.sandbox.leg(4) as BitcoinLeg;

describe("a P2WPKH-only Bitcoin user (segwit v0 inputs only)", () => {
  it("spends two P2WPKH coins in one deposit (each with its previous transaction) and reaches Fulfilled", async () => {
    const { sandbox, client } = flow;
    const user = createBitcoinUser();
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    // Neither coin alone covers 0.001 BTC plus the fee: coin selection must take both.
    await bitcoinLeg().faucet({ address: user.p2wpkh, token: "btc", amountLots: 60_000n });
    await bitcoinLeg().faucet({ address: user.p2wpkh, token: "btc", amountLots: 55_000n });
    const usdc = readLegFacts({ sandbox, networkId: 1 }).tokens.USDC as string;
    const quote = await client.getBestQuote({
      sourceChain: 4,
      sourceToken: "btc",
      destChain: 1,
      destToken: usdc,
      amount: "0.001",
      slippageBps: 50,
    });
    const intent = await client.createIntent({
      quote,
      refundAddress: user.p2wpkh,
      userSourceAddress: user.p2wpkh,
      userDestinationAddress: recipient,
      userSourcePublicKey: user.publicKey,
    });
    if (intent.approvalMechanism !== "htlc") throw new Error("expected an htlc intent");
    const unsigned = Psbt.fromBase64((intent.paramsToSign as { psbt: string }).psbt);
    expect(unsigned.data.inputs).toHaveLength(2);
    unsigned.data.inputs.forEach((input, i) => {
      const previous = Transaction.fromBuffer(input.nonWitnessUtxo!);
      expect(Buffer.from(previous.getHash()).equals(Buffer.from(unsigned.txInputs[i]!.hash))).toBe(true);
    });

    const { approval, verified } = await signHtlcPsbt({
      ecc,
      intent,
      quote,
      userPublicKey: user.publicKey,
      signer: user.key,
      policy: { resolverPublicKey: bitcoinLeg().resolverPublicKey() },
    });
    expect(verified.inputs.map((i) => i.kind)).toEqual(["p2wpkh", "p2wpkh"]);
    await client.submitApproval({ intentId: intent.intentId, approval });
    const final = await waitForOutcome({ client, intentId: intent.intentId, timeoutMs: 45_000 });
    expect(final.status).toBe("Fulfilled");
    expect(final.swapMetadata.userDepositTx).toBe(
      Psbt.fromBase64(approval.signedData).extractTransaction().getId(),
    );
    expectWithinQuote(await sandbox.leg(1).balanceOf(recipient, usdc), quote);
    expect(await bitcoinLeg().balanceOf(user.p2wpkh, "btc")).toBe(115_000n - 100_000n - verified.feeLots);
    const claimed = await waitForClaim({ client, intentId: intent.intentId });
    expect(claimed.swapMetadata.swapTx).not.toBeNull();
  });
});
