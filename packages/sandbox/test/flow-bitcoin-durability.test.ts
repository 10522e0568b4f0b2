import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signHtlcPsbt } from "@swapintent/bitcoin";
import { Psbt, Transaction } from "bitcoinjs-lib";
import * as ecc from "tiny-secp256k1";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openPglite } from "../src/db/openPglite.js";
import type { BitcoinLeg } from "../src/legs/bitcoin/index.js";
import { createBitcoinUser, startFlowSandbox, waitForClaim, waitForOutcome } from "./support/flows.js";

const root = mkdtempSync(join(tmpdir(), "flow-btc-durable-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// What a process pays once, not what these tests check: loading PGlite, and on a machine that has none yet the
// fresh-cluster image a new data dir starts from (else `initdb`, seconds under load). Paid here, within the hook's
// timeout, each test's 20 s cover only its own two starts and its swap.
beforeAll(async () => {
  await (await openPglite({ dir: undefined })).close();
});

/**
 * A sandbox on test `name`'s own data dir: a test that timed out may leave its sandbox open for a while (vitest does
 * not stop it), and the next test must not start a second one on the same database.
 */
const start = (name: string) =>
  startFlowSandbox({ networkIds: [1, 4], apiKey: "durable", dataDir: join(root, name) });
/** Each wait ends well inside the test's timeout, so a swap that stalls fails with its last status. */
const WAIT_MS = 8_000;

// Two sandbox starts (the first creates the data dir's database: 12-15 s at load average 12) and a flow: over the
// 20 s default under load (failed twice at 20.2 and 20.5 s; 16.8 to 20.1 s when it passed).
it("a Bitcoin deposit, the resolver's claim and every balance survive a sandbox restart on the same dataDir", async () => {
  const { key: user, p2tr, publicKey } = createBitcoinUser();
  const recipient = "0x00000000000000000000000000000000000000b7";

  const first = await start("p2tr");
  let resolverKey: unknown;
  let inventory: bigint;
  let userBalance: bigint;
  let intentId: string;
  try {
    const { sandbox, client } = first;
    await sandbox.leg(4).faucet({ address: p2tr, token: "btc", amountLots: 250_000n });
    const usdc = (sandbox.leg(1).info().tokens as Record<string, string>).USDC as string;
    const quote = await client.getBestQuote({
      sourceChain: 4,
      sourceToken: "btc",
      destChain: 1,
      destToken: usdc,
      amount: "0.002",
      slippageBps: 50,
    });
    const intent = await client.createIntent({
      quote,
      refundAddress: p2tr,
      userSourceAddress: p2tr,
      userDestinationAddress: recipient,
      userSourcePublicKey: publicKey,
    });
    if (intent.approvalMechanism !== "htlc") throw new Error("expected an htlc intent");
    intentId = intent.intentId;
    const { approval, verified } = await signHtlcPsbt({
      ecc,
      intent,
      quote,
      userPublicKey: publicKey,
      signer: user,
    });
    await client.submitApproval({ intentId, approval });
    expect((await waitForOutcome({ client, intentId, timeoutMs: WAIT_MS })).status).toBe("Fulfilled");
    // The resolver claims the HTLC after delivering (Fulfilled comes first): the inventory read below must
    // include the claim, so wait for its swap_tx.
    expect((await waitForClaim({ client, intentId, timeoutMs: WAIT_MS })).swapMetadata.swapTx).not.toBeNull();
    userBalance = await sandbox.leg(4).balanceOf(p2tr, "btc");
    expect(userBalance).toBe(250_000n - 200_000n - verified.feeLots);
    resolverKey = sandbox.leg(4).info().resolverPublicKey;
    inventory = await sandbox.leg(4).inventory("btc");
  } finally {
    await first.sandbox.close();
  }

  const second = await start("p2tr");
  try {
    const { sandbox, client } = second;
    expect((await client.getIntentStatus({ intentId })).status).toBe("Fulfilled");
    expect(sandbox.leg(4).info().resolverPublicKey).toBe(resolverKey);
    expect(await sandbox.leg(4).inventory("btc")).toBe(inventory);
    expect(await sandbox.leg(4).balanceOf(p2tr, "btc")).toBe(userBalance);
  } finally {
    await second.sandbox.close();
  }
}, 90_000);

it("a P2WPKH user's coins keep their raw transactions across a restart: the two-input deposit after it is signed and Fulfilled", async () => {
  const { key, p2wpkh, publicKey } = createBitcoinUser();
  const recipient = "0x00000000000000000000000000000000000000b8";

  const first = await start("p2wpkh");
  let minted: string;
  let delivered: string;
  try {
    const leg = first.sandbox.leg(4) as BitcoinLeg;
    // One coin from the faucet, one from an applied spend (a resolver delivery); neither alone covers 0.001 BTC.
    minted = (await leg.faucet({ address: p2wpkh, token: "btc", amountLots: 60_000n })).txHash;
    delivered = (
      await leg.deliver({ intentId: "durable-p2wpkh", token: "btc", recipient: p2wpkh, amountLots: 55_000n })
    ).txHash;
  } finally {
    await first.sandbox.close();
  }

  const second = await start("p2wpkh");
  try {
    const { sandbox, client } = second;
    const usdc = (sandbox.leg(1).info().tokens as Record<string, string>).USDC as string;
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
      refundAddress: p2wpkh,
      userSourceAddress: p2wpkh,
      userDestinationAddress: recipient,
      userSourcePublicKey: publicKey,
    });
    if (intent.approvalMechanism !== "htlc") throw new Error("expected an htlc intent");
    const psbt = Psbt.fromBase64((intent.paramsToSign as { psbt: string }).psbt);
    expect(
      psbt.data.inputs.map((input) => Transaction.fromBuffer(input.nonWitnessUtxo!).getId()).sort(),
    ).toEqual([minted, delivered].sort());
    const { approval, verified } = await signHtlcPsbt({
      ecc,
      intent,
      quote,
      userPublicKey: publicKey,
      signer: key,
    });
    expect(verified.inputs).toHaveLength(2);
    await client.submitApproval({ intentId: intent.intentId, approval });
    expect((await waitForOutcome({ client, intentId: intent.intentId, timeoutMs: WAIT_MS })).status).toBe(
      "Fulfilled",
    );
    expect(await sandbox.leg(4).balanceOf(p2wpkh, "btc")).toBe(115_000n - 100_000n - verified.feeLots);
  } finally {
    await second.sandbox.close();
  }
}, 90_000);
