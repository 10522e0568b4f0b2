import { signHtlcPsbt } from "@swapintent/bitcoin";
import { address as btcAddress, networks, Psbt } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { BitcoinLeg } from "../src/legs/bitcoin/index.js";
import {
  createBitcoinUser,
  expectWithinQuote,
  postRawApproval,
  readLegFacts,
  submitEvmToBitcoinSwap,
  useFlowSandbox,
  waitForClaim,
  waitForOutcome,
} from "./support/flows.js";

const API_KEY = "flow-bitcoin-test";
const flow = useFlowSandbox({ networkIds: [1, 4], apiKey: API_KEY });

const bitcoinLeg = () => flow.sandbox.leg(4) as BitcoinLeg;
const evm = () => readLegFacts({ sandbox: flow.sandbox, networkId: 1 });

/** A Bitcoin user with 80,000 sats on P2TR and 50,000 on P2WPKH, and their 0.001 BTC -> EVM USDC intent. */
async function bitcoinToEvmIntent() {
  const { client } = flow;
  const user = createBitcoinUser();
  const evmRecipient = privateKeyToAccount(generatePrivateKey()).address;
  await bitcoinLeg().faucet({ address: user.p2tr, token: "btc", amountLots: 80_000n });
  await bitcoinLeg().faucet({ address: user.p2wpkh, token: "btc", amountLots: 50_000n });
  const quote = await client.getBestQuote({
    sourceChain: 4,
    sourceToken: "btc",
    destChain: 1,
    destToken: evm().tokens.USDC as string,
    amount: "0.001",
    slippageBps: 50,
  });
  const intent = await client.createIntent({
    quote,
    refundAddress: user.p2wpkh,
    userSourceAddress: user.p2tr,
    userDestinationAddress: evmRecipient,
    userSourcePublicKey: user.publicKey,
  });
  if (intent.approvalMechanism !== "htlc") throw new Error("expected an htlc intent");
  return { user, evmRecipient, quote, intent };
}

/** {@link bitcoinToEvmIntent}, signed by the user with @swapintent/bitcoin (not submitted yet). */
async function signedBitcoinToEvm() {
  const { user, quote, intent } = await bitcoinToEvmIntent();
  const { approval } = await signHtlcPsbt({
    ecc,
    intent,
    quote,
    userPublicKey: user.publicKey,
    signer: user.key,
  });
  return { user, quote, intent, approval };
}

describe("Bitcoin routes through HTTP, @swapintent/client and the signer packages", () => {
  it("Bitcoin -> EVM: BTC on network 4 to USDC on network 1 reaches Fulfilled; the resolver claims the HTLC", async () => {
    const { sandbox, client } = flow;
    const { user, evmRecipient, quote, intent } = await bitcoinToEvmIntent();
    expect(quote.sourceAmountLots).toBe(100_000n);
    const inventoryBefore = await bitcoinLeg().inventory("btc");

    const { approval, verified } = await signHtlcPsbt({
      ecc,
      intent,
      quote,
      userPublicKey: user.publicKey,
      signer: user.key,
      policy: { resolverPublicKey: bitcoinLeg().info().resolverPublicKey as string },
    });
    await client.submitApproval({ intentId: intent.intentId, approval });
    const final = await waitForOutcome({ client, intentId: intent.intentId, timeoutMs: 45_000 });
    expect(final.status).toBe("Fulfilled");
    const deposit = Psbt.fromBase64(approval.signedData).extractTransaction();
    expect(final.swapMetadata.userDepositTx).toBe(deposit.getId());
    // proxy_address is where the user's coins went: the address of the deposit's output that pays the source
    // amount (the HTLC), decoded here by bitcoinjs-lib, not the resolver's own address.
    const htlcOutputs = deposit.outs.filter((out) => out.value === quote.sourceAmountLots);
    expect(htlcOutputs).toHaveLength(1);
    expect(final.swapMetadata.proxyAddress).toBe(
      btcAddress.fromOutputScript(htlcOutputs[0]!.script, networks.regtest),
    );
    expect(final.swapMetadata.proxyAddress).toMatch(/^bcrt1p/);
    expect(final.swapMetadata.proxyAddress).not.toBe(bitcoinLeg().info().resolverAddress);

    expectWithinQuote(await sandbox.leg(1).balanceOf(evmRecipient, evm().tokens.USDC as string), quote);
    const spent = 130_000n - (await bitcoinLeg().balanceOf(user.p2tr, "btc"));
    expect(spent).toBe(100_000n + verified.feeLots);
    expect(await bitcoinLeg().balanceOf(user.p2wpkh, "btc")).toBe(0n);
    // The resolver claims the HTLC after delivering (Fulfilled comes first): wait for the claim's swap_tx.
    const claimed = await waitForClaim({ client, intentId: intent.intentId });
    expect(claimed.swapMetadata.swapTx).not.toBeNull();
    // The claim moved the HTLC (minus the claim's fee) into the resolver's inventory.
    const gained = (await bitcoinLeg().inventory("btc")) - inventoryBefore;
    expect(gained > 99_000n && gained < 100_000n).toBe(true);
  });

  it("EVM -> Bitcoin: USDC on network 1 to BTC on network 4 reaches Fulfilled", async () => {
    const { sandbox, client } = flow;
    const { btc, quote, intent } = await submitEvmToBitcoinSwap({ sandbox, client });
    const final = await waitForOutcome({ client, intentId: intent.intentId, timeoutMs: 45_000 });
    expect(final.status).toBe("Fulfilled");
    expectWithinQuote(await bitcoinLeg().balanceOf(btc.p2tr, "btc"), quote);
  });

  it("a PSBT with a flipped signature byte gets 422 and the intent stays Initiated", async () => {
    const { sandbox, client } = flow;
    const { user, intent, approval } = await signedBitcoinToEvm();
    const psbt = Psbt.fromBase64(approval.signedData);
    const witness = psbt.data.inputs[0]!.finalScriptWitness!;
    witness[4] = witness[4]! ^ 0x01;
    const response = await postRawApproval({
      sandbox,
      apiKey: API_KEY,
      intentId: intent.intentId,
      body: { type: "psbt", signed_data: psbt.toBase64() },
    });
    expect(response.status).toBe(422);
    expect((await client.getIntentStatus({ intentId: intent.intentId })).status).toBe("Initiated");
    expect(await bitcoinLeg().balanceOf(user.p2tr, "btc")).toBe(80_000n);
  });

  it("a failed delivery ends Refunded: the resolver pays the BTC back to the refund address", async () => {
    const { sandbox, client } = flow;
    const { user, quote, intent, approval } = await signedBitcoinToEvm();
    sandbox.setFaults({ fail_delivery: true });
    try {
      await client.submitApproval({ intentId: intent.intentId, approval });
      const final = await waitForOutcome({ client, intentId: intent.intentId, timeoutMs: 45_000 });
      expect(final.status).toBe("Refunded");
    } finally {
      sandbox.setFaults({ fail_delivery: false });
    }
    expect(await bitcoinLeg().balanceOf(user.p2wpkh, "btc")).toBe(quote.sourceAmountLots);
  });
});
