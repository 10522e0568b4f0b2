/**
 * The permit2 wallet snippets (examples/permit2-eip1193.ts, permit2-wagmi.ts, permit2-tronlink.ts) run literally
 * against the sandbox, whose real Permit2 contract on anvil executes what they sign, through stand-in wallets that
 * follow each wallet's documented API and hold their own key: a bare EIP-1193 provider (`window.ethereum`), the same
 * provider behind wagmi's `injected` connector, and TronLink's injected `tronWeb`. Stand-ins that sign with another
 * key, sit on another chain or return junk are refused before anything is submitted; a permit that fails
 * verification never reaches the wallet at all.
 */
import { isPermit2Error, type Permit2TypedData } from "@swapintent/permit2";
import type { TronLinkTronWeb } from "@swapintent/permit2/tron";
import { startSandbox } from "@swapintent/sandbox";
import { connect, createConfig, http, injected } from "@wagmi/core";
import * as tronweb from "tronweb";
import { TronWeb } from "tronweb";
import { defineChain, type Hex, type TypedDataDefinition } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { signWithInjectedWallet } from "../examples/permit2-eip1193.js";
import { signWithTronLink } from "../examples/permit2-tronlink.js";
import { signWithWagmi } from "../examples/permit2-wagmi.js";
import { type OpenPermit2Intent, openPermit2Intent } from "./permit2Intent.js";

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dev: true, resolverIntervalMs: 50, log: () => {} });
});

afterAll(async () => {
  await sandbox?.close();
});

/** Submits and waits: the real Permit2 executes the signature and the intent is fulfilled. */
async function fulfil(opened: OpenPermit2Intent, approval: unknown) {
  await opened.client.submitApproval({ intentId: opened.intent.intentId, approval: approval as never });
  const final = await opened.client.waitForIntent({ intentId: opened.intent.intentId, timeoutMs: 60_000 });
  expect(final.status).toBe("Fulfilled");
  expect(
    await opened.dev.balance({ networkId: 2, address: opened.recipient, token: opened.destUsdc }),
  ).toBeGreaterThanOrEqual(opened.quote.minDestAmountLots);
}

/** `window.ethereum` as EIP-1193 and `eth_signTypedData_v4` document it; the key is the stand-in's. */
function standInEthereum(options: {
  privateKey: Hex;
  chainId: number;
  reports?: string;
  chainIdAnswer?: unknown;
  tamper?: (signature: Hex) => unknown;
}) {
  const account = privateKeyToAccount(options.privateKey);
  const reported = options.reports ?? account.address;
  const request = vi.fn(async ({ method, params }: { method: string; params?: readonly unknown[] }) => {
    switch (method) {
      case "eth_chainId":
        return "chainIdAnswer" in options ? options.chainIdAnswer : `0x${options.chainId.toString(16)}`;
      case "eth_accounts":
      case "eth_requestAccounts":
        return [reported];
      case "eth_signTypedData_v4": {
        const [from, json] = params as [string, string];
        if (from.toLowerCase() !== reported.toLowerCase())
          throw Object.assign(new Error("The requested account has not been authorized"), { code: 4100 });
        const { domain, types, primaryType, message } = JSON.parse(json);
        const signature = await account.signTypedData({
          domain,
          types,
          primaryType,
          message,
        } as TypedDataDefinition);
        return options.tamper ? options.tamper(signature) : signature;
      }
      default:
        throw Object.assign(new Error(`${method} is not supported`), { code: 4200 });
    }
  });
  return { request, on: () => {}, removeListener: () => {} };
}

const methods = (provider: ReturnType<typeof standInEthereum>) =>
  provider.request.mock.calls.map(([a]) => a.method);

describe("examples/permit2-eip1193.ts: a bare EIP-1193 provider", () => {
  it("a stand-in window.ethereum signs; the real Permit2 accepts it and the intent is fulfilled", async () => {
    const opened = await openPermit2Intent(sandbox.url, 1);
    const provider = standInEthereum({ privateKey: opened.privateKey, chainId: opened.args[3].chainId });
    const approval = await signWithInjectedWallet(provider, ...opened.args);
    expect(methods(provider)).toEqual(["eth_accounts", "eth_chainId", "eth_signTypedData_v4"]);
    await fulfil(opened, approval);
  });

  it("another key, another chain or junk: refused before submission; a tampered permit never reaches the wallet", async () => {
    const opened = await openPermit2Intent(sandbox.url, 1);
    const { chainId } = opened.args[3];
    const cases = [
      {
        code: "PERMIT2_SIGNER_MISMATCH",
        provider: standInEthereum({ privateKey: generatePrivateKey(), chainId, reports: opened.address }),
      },
      {
        code: "PERMIT2_CHAIN_ID_MISMATCH",
        provider: standInEthereum({ privateKey: opened.privateKey, chainId: 1 }),
      },
      {
        code: "PERMIT2_WALLET_RESPONSE_INVALID",
        provider: standInEthereum({ privateKey: opened.privateKey, chainId, chainIdAnswer: chainId }),
      },
      {
        code: "PERMIT2_SIGNATURE_INVALID",
        provider: standInEthereum({ privateKey: opened.privateKey, chainId, tamper: (s) => s.slice(0, 130) }),
      },
    ];
    for (const { code, provider } of cases) {
      const error = await signWithInjectedWallet(provider, ...opened.args).catch((e: unknown) => e);
      expect(isPermit2Error(error) && error.code).toBe(code);
    }
    // Verification failures (the escrow the wallet trusts differs, the user's destination differs): no request at all.
    const provider = standInEthereum({ privateKey: opened.privateKey, chainId });
    const [intent, quote, recipient, chain, destination] = opened.args;
    const tampered = [
      () =>
        signWithInjectedWallet(
          provider,
          intent,
          quote,
          recipient,
          { ...chain, escrow: chain.permit2 },
          destination,
        ),
      () =>
        signWithInjectedWallet(
          provider,
          intent,
          quote,
          "0x000000000000000000000000000000000000dEaD",
          chain,
          destination,
        ),
      () =>
        signWithInjectedWallet(provider, intent, quote, recipient, chain, {
          ...destination,
          minAmountLots: quote.minDestAmountLots + 1n,
        }),
    ];
    for (const run of tampered) expect(isPermit2Error(await run().catch((e: unknown) => e))).toBe(true);
    expect(provider.request).not.toHaveBeenCalled();
    // Nothing was submitted: the intent still waits for its approval.
    expect((await opened.client.getIntentStatus({ intentId: opened.intent.intentId })).status).toBe(
      "Initiated",
    );
  });
});

describe("examples/permit2-wagmi.ts: wagmi's getWalletClient", () => {
  it("the stand-in behind wagmi's injected connector signs through the WalletClient path; the intent is fulfilled", async () => {
    const opened = await openPermit2Intent(sandbox.url, 1);
    const { chainId } = opened.args[3];
    const provider = standInEthereum({ privateKey: opened.privateKey, chainId });
    const chain = defineChain({
      id: chainId,
      name: "sandbox",
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: ["http://127.0.0.1:9"] } },
    });
    const config = createConfig({
      chains: [chain],
      connectors: [injected()], // window.ethereum, as in a browser app
      transports: { [chainId]: http() },
    });
    // The page's window as wagmi reads it: the stand-in injected as window.ethereum.
    vi.stubGlobal("window", {
      ethereum: provider,
      addEventListener: () => {},
      removeEventListener: () => {},
    });
    let approval: unknown;
    try {
      await connect(config, { connector: config.connectors[0]! });
      approval = await signWithWagmi(config, ...opened.args);
    } finally {
      vi.unstubAllGlobals();
    }
    expect(methods(provider)).toContain("eth_signTypedData_v4");
    await fulfil(opened, approval);
  });
});

describe("examples/permit2-tronlink.ts: TronLink's injected tronWeb", () => {
  /** `window.tronWeb` as TronLink injects it: `defaultAddress`, `trx.signTypedData(domain, types, value)` with its key. */
  function standInTronWeb(privateKey: Hex, reports?: string) {
    const own = TronWeb.address.fromPrivateKey(privateKey.slice(2)) as string;
    const signTypedData = vi.fn(
      async (
        domain: Permit2TypedData["domain"],
        types: Permit2TypedData["types"],
        value: Permit2TypedData["message"],
      ) => tronweb.Trx.signTypedData(domain, types, value, privateKey.slice(2)),
    );
    const tronWeb: TronLinkTronWeb = {
      defaultAddress: { base58: reports ?? own, hex: TronWeb.address.toHex(reports ?? own) },
      trx: { signTypedData, _signTypedData: signTypedData },
    };
    return { tronWeb, signTypedData };
  }

  it("a stand-in TronLink signs the TIP-712 permit; the real Permit2 (Tron chain id) accepts it", async () => {
    const opened = await openPermit2Intent(sandbox.url, 3);
    const { tronWeb, signTypedData } = standInTronWeb(opened.privateKey);
    expect(tronWeb.defaultAddress.base58).toBe(opened.address);
    const approval = await signWithTronLink(tronWeb, ...opened.args);
    expect(signTypedData).toHaveBeenCalledTimes(1);
    await fulfil(opened, approval);
  });

  it("a TronLink that signs with another key is refused (PERMIT2_SIGNER_MISMATCH); a tampered permit never reaches it", async () => {
    const opened = await openPermit2Intent(sandbox.url, 3);
    const lying = standInTronWeb(generatePrivateKey(), opened.address);
    const error = await signWithTronLink(lying.tronWeb, ...opened.args).catch((e: unknown) => e);
    expect(isPermit2Error(error) && error.code).toBe("PERMIT2_SIGNER_MISMATCH");
    const honest = standInTronWeb(opened.privateKey);
    const [intent, quote, , chain, destination] = opened.args;
    const refused = await signWithTronLink(
      honest.tronWeb,
      intent,
      quote,
      "bcrt1qsomeoneelse",
      chain,
      destination,
    ).catch((e: unknown) => e);
    expect(isPermit2Error(refused, "PERMIT2_RECIPIENT_MISMATCH")).toBe(true);
    expect(honest.signTypedData).not.toHaveBeenCalled();
  });
});
