/**
 * The root README's EVM Permit2 snippet (examples/permit2-evm.ts), run literally against the sandbox: the wallet
 * passes its own chain facts (chain id, escrow, Permit2 address) and destination facts, the real Permit2 executes
 * the signature and the intent reaches Fulfilled. Without `allowedPermit2Addresses` the sandbox's Permit2 (not the
 * canonical deployment) is refused, which is what the snippet used to do.
 */
import { createClient, isSwapIntentError } from "@swapintent/client";
import { signPermit2Approval } from "@swapintent/permit2/evm";
import { startSandbox } from "@swapintent/sandbox";
import { createDevApi } from "@swapintent/testing/devApi";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signOnEvm } from "../examples/permit2-evm.js";
import { Redactor } from "../src/redact.js";
import { createPermit2Wallet } from "../src/wallets/evm.js";
import { readFact } from "../src/wallets/types.js";

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
    const apiKey = "readme-permit2";
    const dev = createDevApi({ baseUrl: sandbox.url, apiKey });
    const chains = await dev.chains();
    const source = chains.find((c) => c.network_id === 1)!;
    const dest = chains.find((c) => c.network_id === 2)!;
    const sourceUsdc = (source.info.tokens as Record<string, string>).USDC!;
    const destUsdc = (dest.info.tokens as Record<string, string>).USDC!;
    const privateKey = generatePrivateKey();
    const wallet = createPermit2Wallet({
      info: source.info,
      tron: false,
      redactor: new Redactor(),
      privateKey,
    });
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    await dev.faucet({ networkId: 1, address: wallet.address, token: "ETH", amount: "1" });
    await dev.faucet({ networkId: 1, address: wallet.address, token: "USDC", amount: "10" });

    const client = createClient({ baseUrl: sandbox.url, apiKey });
    const quote = await client.getBestQuote({
      sourceChain: 1,
      sourceToken: sourceUsdc,
      destChain: 2,
      destToken: destUsdc,
      amount: "5",
      slippageBps: 50,
    });
    const intent = await client.createIntent({
      quote,
      refundAddress: wallet.address,
      userSourceAddress: wallet.address,
      userDestinationAddress: recipient,
    });
    await wallet.prepare({ token: sourceUsdc, amountLots: quote.sourceAmountLots });
    const chain = {
      chainId: Number(readFact(source.info, "chainId")),
      permit2: readFact(source.info, "permit2Address"),
      escrow: readFact(source.info, "escrowAddress"),
    };
    // The wallet's registry: USDC on network 2 has 6 decimals; the least the user accepts is what it was shown.
    const destination = { network: 2, token: destUsdc, decimals: 6, minAmountLots: quote.minDestAmountLots };

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
