/**
 * The root README's EVM Permit2 snippet (examples/permit2-evm.ts), run literally against the sandbox: the wallet
 * passes its own chain facts (chain id, escrow, Permit2 address) and destination facts, the real Permit2 executes
 * the signature and the intent reaches Fulfilled. Without `allowedPermit2Addresses` the sandbox's Permit2 (not the
 * canonical deployment) is refused, which is what the snippet used to do.
 */
import { isSwapIntentError } from "@swapintent/client";
import { signPermit2Approval } from "@swapintent/permit2/evm";
import { startSandbox } from "@swapintent/sandbox";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signOnEvm } from "../examples/permit2-evm.js";
import { openPermit2Intent } from "./permit2Intent.js";

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dev: true, resolverIntervalMs: 50, log: () => {} });
});

afterAll(async () => {
  await sandbox?.close();
});

describe("README snippet: EVM Permit2 (examples/permit2-evm.ts)", () => {
  it("signs with the wallet's own chain and destination facts; the sandbox fulfils the intent", async () => {
    const opened = await openPermit2Intent(sandbox.url, 1);
    const { intent, quote, recipient, privateKey, client, dev, destUsdc } = opened;
    const [, , , chain, destination] = opened.args;

    // The snippet as it was (no allowedPermit2Addresses): refused before signing.
    const before = await signPermit2Approval({
      intent,
      quote,
      expected: { chainId: chain.chainId, recipient, spender: chain.escrow, destination },
      signer: privateKeyToAccount(privateKey),
    }).catch((error: unknown) => error);
    expect(isSwapIntentError(before, "PERMIT2_CONTRACT_NOT_ALLOWED")).toBe(true);

    process.env.EVM_PRIVATE_KEY = privateKey;
    try {
      const approval = await signOnEvm(intent, quote, recipient, chain, destination);
      await client.submitApproval({ intentId: intent.intentId, approval });
    } finally {
      delete process.env.EVM_PRIVATE_KEY;
    }
    const final = await client.waitForIntent({ intentId: intent.intentId, timeoutMs: 60_000 });
    expect(final.status).toBe("Fulfilled");
    expect(await dev.balance({ networkId: 2, address: recipient, token: destUsdc })).toBeGreaterThanOrEqual(
      quote.minDestAmountLots,
    );
  });
});
