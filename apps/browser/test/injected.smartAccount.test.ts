import { createSwapIntentClient } from "@swapintent/client";
import { createDevApi } from "@swapintent/testing/devApi";
import type { Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { SmartWalletStandinConfig } from "./standins/smartWallet.js";
import { useInjectedHarness } from "./support/injectedHarness.js";

// `?wallets=injected&injected=smartwallet` with a smart-account wallet stand-in behind `window.ethereum`
// (test/standins/smartWallet.ts): the user's account is a sandbox SandboxSmartAccount (ERC-1271) whose owner key
// stays in the stand-in. The page signs through `signPermit2Approval({ provider, publicClient: provider })`, which
// checks the answer against the chain as Permit2 will; the sandbox deploys a counterfactual account (ERC-6492)
// before Permit2 runs.

const API_KEY = "swapintent-browser";
const harness = useInjectedHarness({
  standins: { smartWallet: "smartWallet.ts" },
  tmpPrefix: "swapintent-browser-smart-",
});

/** A fresh owner's smart account on the EVM chain (deployed or not), as the stand-in's configuration. */
async function smartAccountStandin(
  deploy: boolean,
  tamper: SmartWalletStandinConfig["tamper"],
): Promise<SmartWalletStandinConfig> {
  const url = harness.sandbox().url;
  const chains = await createDevApi({ baseUrl: url, apiKey: API_KEY }).chains();
  const chain = chains.find((c) => c.type === "EVM")!;
  const ownerPrivateKey = generatePrivateKey();
  const owner = privateKeyToAccount(ownerPrivateKey);
  const response = await fetch(new URL("/sandbox/smart-accounts", url), {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": API_KEY },
    body: JSON.stringify({ network_id: chain.network_id, owner: owner.address, deploy }),
  });
  const account = (await response.json()) as {
    address: Hex;
    factory: Hex;
    factory_data: Hex;
    deployed: boolean;
  };
  expect(account.deployed).toBe(deploy);
  return {
    ownerPrivateKey,
    account: account.address,
    factory: account.factory,
    factoryData: account.factory_data,
    chainId: Number(chain.info.chainId),
    rpcUrl: chain.info.rpcUrl as string,
    tamper,
  } satisfies SmartWalletStandinConfig;
}

/** Opens the page with the stand-in, runs the EVM route, reads its row. */
async function runSmartRoute(config: SmartWalletStandinConfig) {
  const context = await harness.browser().newContext();
  const errors: string[] = [];
  try {
    const page = await context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    await page.addInitScript({ content: `window.__smartWalletStandin = ${JSON.stringify(config)};` });
    await page.addInitScript({ content: harness.script("smartWallet") });
    const query = new URLSearchParams({
      sandbox: harness.sandbox().url,
      wallets: "injected",
      injected: "smartwallet",
    });
    await page.goto(`${harness.siteUrl()}/?${query}`);
    await page.waitForSelector("body[data-ready]", { timeout: 60_000 });
    const setup = await page.textContent("#setup");
    await page.click('button[data-route="evm"]');
    await page
      .waitForFunction(
        () =>
          ["ok", "failed"].includes(
            document.querySelector<HTMLElement>('[data-status="evm"]')?.dataset.state ?? "",
          ),
        undefined,
        { timeout: 150_000 },
      )
      .catch(() => {});
    const row = await page.evaluate(() => {
      const status = document.querySelector<HTMLElement>('[data-status="evm"]')!;
      return {
        state: status.dataset.state ?? "",
        status: status.textContent ?? "",
        detail: document.querySelector('[data-detail="evm"]')?.textContent ?? "",
      };
    });
    return { setup, row, errors };
  } finally {
    await context.close();
  }
}

async function sandboxStatus(detail: string): Promise<string> {
  const intentId = /intent ([0-9a-f-]{36})/.exec(detail)?.[1];
  if (!intentId) throw new Error(`no intent id in: ${detail}`);
  const client = createSwapIntentClient({ baseUrl: harness.sandbox().url, apiKey: API_KEY });
  return (await client.getIntentStatus({ intentId })).rawStatus;
}

describe("a smart-account wallet (EIP-1193 stand-in) in headless Chromium", () => {
  it("a deployed account (ERC-1271) and a counterfactual one (ERC-6492 wrapped answer) reach Fulfilled", async () => {
    harness.assertSetUp();
    for (const deploy of [true, false]) {
      const config = await smartAccountStandin(deploy, "none");
      const { setup, row, errors } = await runSmartRoute(config);
      expect(setup).toContain(`EVM: ${config.account}`);
      expect({ deploy, ...row }).toEqual({
        deploy,
        state: "ok",
        status: "Fulfilled",
        detail: expect.stringMatching(/^end · intent [0-9a-f-]{36}$/),
      });
      expect(errors).toEqual([]);
    }
  });

  it("a smart wallet that signs another hash: PERMIT2_CONTRACT_SIGNATURE_INVALID, and the intent is never approved", async () => {
    harness.assertSetUp();
    for (const deploy of [true, false]) {
      const { row } = await runSmartRoute(await smartAccountStandin(deploy, "otherHash"));
      expect({ deploy, state: row.state, detail: row.detail }).toEqual({
        deploy,
        state: "failed",
        detail: expect.stringMatching(
          /^failed at sign: PERMIT2_CONTRACT_SIGNATURE_INVALID: .+ · intent [0-9a-f-]{36}$/,
        ),
      });
      expect(await sandboxStatus(row.detail)).toBe("Initiated");
    }
  });
});
