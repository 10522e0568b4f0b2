/**
 * Solana routes through the whole sandbox over HTTP: quote -> intent -> the user signs with a swapintent signer
 * package -> approval -> resolver -> Fulfilled. The Solana side executes on litesvm (signature verification on),
 * the EVM side on anvil with the real Permit2 contract.
 */
import { Keypair, VersionedTransaction } from "@solana/web3.js";
import { signPermit2Approval } from "@swapintent/permit2/evm";
import { signCosignTransaction } from "@swapintent/solana";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import {
  createSolanaUser,
  expectWithinQuote,
  fetchChainFacts,
  fundEvmUser,
  postRawApproval,
  useFlowSandbox,
  waitForClaim,
  waitForOutcome,
} from "./support/flows.js";

const API_KEY = "flow-solana-test";
const flow = useFlowSandbox({ networkIds: [1, 5], apiKey: API_KEY });

/** What a wallet reads from `GET /sandbox/chains` for a network. */
const chainFacts = (networkId: number) =>
  fetchChainFacts({ sandbox: flow.sandbox, apiKey: API_KEY, networkId });

const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";

/**
 * A Solana user given `usdcLots` USDC who quotes `amount` USDC to EVM USDC for `recipient`, creates the intent and
 * signs its cosign transaction with @swapintent/solana (not submitted yet).
 */
async function signedSolanaToEvm(options: { usdcLots: bigint; amount: string; recipient: string }) {
  const { client } = flow;
  const { info, tokens } = await chainFacts(5);
  const { user, address, publicKey } = await createSolanaUser({
    leg: flow.sandbox.leg(5),
    token: tokens.USDC!,
    amountLots: options.usdcLots,
  });
  const evmTokens = (await chainFacts(1)).tokens;
  const quote = await client.getBestQuote({
    sourceChain: 5,
    sourceToken: tokens.USDC!,
    destChain: 1,
    destToken: evmTokens.USDC!,
    amount: options.amount,
    slippageBps: 50,
  });
  const intent = await client.createIntent({
    quote,
    refundAddress: address,
    userSourceAddress: address,
    userDestinationAddress: options.recipient,
    userSourcePublicKey: publicKey,
  });
  const signed = await signCosignTransaction({
    intent,
    quote,
    escrow: { owner: info.escrowOwner as string },
    signer: user,
  });
  return { address, info, tokens, evmTokens, quote, intent, signed };
}

describe("Solana flows through @swapintent/client", { timeout: 60_000 }, () => {
  it("Solana USDC -> EVM USDC reaches Fulfilled: litesvm executes the user-signed transaction, the resolver claims", async () => {
    const { sandbox, client } = flow;
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const { address, info, tokens, evmTokens, quote, intent, signed } = await signedSolanaToEvm({
      usdcLots: 50_000_000n,
      amount: "12.5",
      recipient,
    });
    expect(quote.sourceAmountLots).toBe(12_500_000n);
    expect(intent.approvalMechanism).toBe("cosign");

    await client.submitApproval({ intentId: intent.intentId, approval: signed.approval });
    const final = await waitForOutcome({ client, intentId: intent.intentId, timeoutMs: 30_000 });
    expect(final.status).toBe("Fulfilled");
    // proxy_address is where the user's tokens went: the destination of the transaction's SPL TransferChecked
    // (instruction 12; accounts source, mint, destination, authority), decoded here by @solana/web3.js.
    if (intent.approvalMechanism !== "cosign") throw new Error("expected a cosign intent");
    const tx = VersionedTransaction.deserialize(Buffer.from(intent.paramsToSign.transaction, "hex"));
    const keys = tx.message.staticAccountKeys.map((k) => k.toBase58());
    const transfers = tx.message.compiledInstructions.filter(
      (ix) => keys[ix.programIdIndex] === TOKEN_PROGRAM && ix.data[0] === 12,
    );
    expect(transfers).toHaveLength(1);
    expect(final.swapMetadata.proxyAddress).toBe(keys[transfers[0]!.accountKeyIndexes[2]!]);
    expect(final.swapMetadata.proxyAddress).not.toBe(info.resolverAddress);

    const solana = sandbox.leg(5);
    expect(await solana.balanceOf(address, tokens.USDC!)).toBe(50_000_000n - 12_500_000n);
    // The resolver claims the escrow after delivering (Fulfilled comes first): wait for the claim's swap_tx.
    const claimed = await waitForClaim({ client, intentId: intent.intentId });
    expect(claimed.swapMetadata.swapTx).not.toBeNull();
    // Claimed: the escrow holds nothing for this intent any more.
    expect(await solana.balanceOf(info.escrowOwner as string, tokens.USDC!)).toBe(0n);
    expectWithinQuote(await sandbox.leg(1).balanceOf(recipient, evmTokens.USDC!), quote);
  });

  it("wSOL -> EVM USDC with a wallet-adapter style signer reaches Fulfilled", async () => {
    const { sandbox, client } = flow;
    const { info, tokens } = await chainFacts(5);
    const { user, address, publicKey } = await createSolanaUser({
      leg: sandbox.leg(5),
      token: tokens.wSOL!,
      amountLots: 3_000_000_000n,
    });
    const evmTokens = (await chainFacts(1)).tokens;
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const quote = await client.getBestQuote({
      sourceChain: 5,
      sourceToken: tokens.wSOL!,
      destChain: 1,
      destToken: evmTokens.USDC!,
      amount: "1.5",
      slippageBps: 100,
    });
    expect(quote.sourceAmountLots).toBe(1_500_000_000n);
    const intent = await client.createIntent({
      quote,
      refundAddress: address,
      userSourceAddress: address,
      userDestinationAddress: recipient,
      userSourcePublicKey: publicKey,
    });
    let prompts = 0;
    const wallet = {
      publicKey: user.publicKey,
      async signTransaction(tx: VersionedTransaction) {
        prompts++;
        tx.sign([user]);
        return tx;
      },
    };
    const signed = await signCosignTransaction({
      intent,
      quote,
      escrow: { owner: info.escrowOwner as string },
      signer: wallet,
    });
    expect(prompts).toBe(1);
    await client.submitApproval({ intentId: intent.intentId, approval: signed.approval });
    const final = await waitForOutcome({ client, intentId: intent.intentId, timeoutMs: 30_000 });
    expect(final.status).toBe("Fulfilled");
    expect(await sandbox.leg(5).balanceOf(address, tokens.wSOL!)).toBe(1_500_000_000n);
    expectWithinQuote(await sandbox.leg(1).balanceOf(recipient, evmTokens.USDC!), quote);
  });

  it("EVM USDC -> Solana USDC reaches Fulfilled: Permit2 on anvil, delivery on litesvm", async () => {
    const { sandbox, client } = flow;
    const { info: evmInfo, tokens: evmTokens } = await chainFacts(1);
    const { account } = await fundEvmUser({
      leg: sandbox.leg(1),
      token: evmTokens.USDC!,
      amountLots: 100_000_000n,
    });

    const solTokens = (await chainFacts(5)).tokens;
    const recipient = Keypair.generate().publicKey.toBase58();
    const quote = await client.getBestQuote({
      sourceChain: 1,
      sourceToken: evmTokens.USDC!,
      destChain: 5,
      destToken: solTokens.USDC!,
      amount: "20",
      slippageBps: 50,
    });
    const intent = await client.createIntent({
      quote,
      refundAddress: account.address,
      userSourceAddress: account.address,
      userDestinationAddress: recipient,
    });
    const signed = await signPermit2Approval({
      intent,
      quote,
      expected: {
        chainId: evmInfo.chainId as number,
        recipient,
        owner: account.address,
        spender: evmInfo.escrowAddress as string,
      },
      allowedPermit2Addresses: [evmInfo.permit2Address as string],
      signer: account,
    });
    await client.submitApproval({ intentId: intent.intentId, approval: signed.approval });
    const final = await waitForOutcome({ client, intentId: intent.intentId, timeoutMs: 30_000 });
    expect(final.status).toBe("Fulfilled");
    expectWithinQuote(await sandbox.leg(5).balanceOf(recipient, solTokens.USDC!), quote);
  });

  it("a failed delivery refunds the Solana escrow to the user (Refunded)", async () => {
    const { sandbox, client } = flow;
    const { address, info, tokens, intent, signed } = await signedSolanaToEvm({
      usdcLots: 8_000_000n,
      amount: "3",
      recipient: privateKeyToAccount(generatePrivateKey()).address,
    });
    sandbox.setFaults({ fail_delivery: true });
    try {
      await client.submitApproval({ intentId: intent.intentId, approval: signed.approval });
      const final = await waitForOutcome({ client, intentId: intent.intentId, timeoutMs: 30_000 });
      expect(final.status).toBe("Refunded");
      expect(final.swapMetadata.userDepositTx).not.toBeNull();
      expect(final.swapMetadata.refundedAt).not.toBeNull();
    } finally {
      sandbox.setFaults({ fail_delivery: false });
    }
    // The deposit executed (the user signed it), then the refund transaction paid it back.
    expect(await sandbox.leg(5).balanceOf(address, tokens.USDC!)).toBe(8_000_000n);
    expect(await sandbox.leg(5).balanceOf(info.escrowOwner as string, tokens.USDC!)).toBe(0n);
  });

  it("a Solana approval with a garbage user signature gets 422 from the leg and changes nothing", async () => {
    const { sandbox, client } = flow;
    const { address, tokens, intent, signed } = await signedSolanaToEvm({
      usdcLots: 5_000_000n,
      amount: "1",
      recipient: privateKeyToAccount(generatePrivateKey()).address,
    });
    // Replace the user's 64-byte signature (slot 1, after the 1-byte count and the resolver's slot) with garbage.
    const bytes = Buffer.from(signed.transaction, "hex");
    bytes.fill(7, 1 + 64, 1 + 128);
    const response = await postRawApproval({
      sandbox,
      apiKey: API_KEY,
      intentId: intent.intentId,
      body: { type: "cosign", signed_data: { transaction: bytes.toString("hex"), user_address: address } },
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { message: string }).message).toMatch(/signature does not verify/);
    expect((await client.getIntentStatus({ intentId: intent.intentId })).status).toBe("Initiated");
    expect(await sandbox.leg(5).balanceOf(address, tokens.USDC!)).toBe(5_000_000n);
  });
});
