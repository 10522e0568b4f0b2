import { createSwapIntentClient } from "@swapintent/client";
import { type ChainFacts, createDevApi } from "@swapintent/testing/devApi";
import { createPermit2WalletBase } from "@swapintent/testing/permit2Wallet";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type {
  Permit2StandinConfig,
  Permit2StandinName,
  Permit2Tamper,
} from "./standins/permit2StandinConfig.js";
import { useInjectedHarness } from "./support/injectedHarness.js";

// `?wallets=injected` with the Permit2 stand-ins (test/standins): `window.ethereum` (EIP-1193) and TronLink
// (`window.tronLink` + `window.tronWeb`), each following its wallet's documented API, holding its own key and signing
// for real; the page signs through @swapintent/permit2's provider and TronLink adapters. The test makes each
// stand-in's key and gives the one-time Permit2 allowance with it from Node (a wallet owner's step before the swap),
// then hands the key to the stand-in only. One browser, one sandbox; the routes of a page run in parallel.

const STANDINS: Record<Permit2StandinName, string> = { ethereum: "ethereum.ts", tronLink: "tronLink.ts" };
const API_KEY = "swapintent-browser";
/** The page's Permit2 routes: the route key, the stand-in, the chain type, the source token. */
const ROUTES = [
  { route: "evm", standin: "ethereum", type: "EVM", token: "USDC", gas: { token: "ETH", amount: "1" } },
  { route: "tron", standin: "tronLink", type: "TRON", token: "USDT", gas: { token: "TRX", amount: "100" } },
] as const;

const harness = useInjectedHarness({ standins: STANDINS, tmpPrefix: "swapintent-browser-permit2-" });

/**
 * A stand-in's configuration with a fresh key whose owner already gave Permit2 its allowance for the route's source
 * token (gas from the faucet, then `approve` sent from Node with that key): the page itself never sees the key.
 */
async function standinWithAllowance(
  chains: ChainFacts[],
  route: (typeof ROUTES)[number],
  tamper: Permit2Tamper,
): Promise<Permit2StandinConfig> {
  const chain = chains.find((c) => c.type === route.type)!;
  const privateKey = generatePrivateKey();
  const { wallet, chainId } = createPermit2WalletBase({
    info: chain.info,
    tron: route.type === "TRON",
    account: privateKeyToAccount(privateKey),
  });
  const dev = createDevApi({ baseUrl: harness.sandbox().url, apiKey: API_KEY });
  const token = (chain.info.tokens as Record<string, string>)[route.token]!;
  await dev.faucet({ networkId: chain.network_id, address: wallet.address, ...route.gas });
  await wallet.prepare({ token, amountLots: 10n ** 30n });
  return { privateKey, otherPrivateKey: generatePrivateKey(), chainId, tamper };
}

interface RouteRow {
  state: string;
  status: string;
  detail: string;
  summary: string;
}

/** Opens the page with both stand-ins (their tampers), runs the Permit2 routes in parallel, reads their rows. */
async function runPermit2Routes(tampers: Record<Permit2StandinName, Permit2Tamper>) {
  const dev = createDevApi({ baseUrl: harness.sandbox().url, apiKey: API_KEY });
  const chains = await dev.chains();
  const configs = Object.fromEntries(
    await Promise.all(
      ROUTES.map(
        async (r) => [r.standin, await standinWithAllowance(chains, r, tampers[r.standin])] as const,
      ),
    ),
  );
  const context = await harness.browser().newContext();
  const errors: string[] = [];
  try {
    const page = await context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    await page.addInitScript({ content: `window.__permit2Standins = ${JSON.stringify(configs)};` });
    for (const name of Object.keys(STANDINS) as Permit2StandinName[])
      await page.addInitScript({ content: harness.script(name) });
    const query = new URLSearchParams({ sandbox: harness.sandbox().url, wallets: "injected" });
    query.append("injected", "ethereum");
    query.append("injected", "tronlink");
    await page.goto(`${harness.siteUrl()}/?${query}`);
    await page.waitForSelector("body[data-ready]", { timeout: 60_000 });
    const setup = await page.textContent("#setup");
    // One click after the other (a click returns once dispatched; the routes then run in parallel).
    for (const r of ROUTES) await page.click(`button[data-route="${r.route}"]`);
    // Every route ends ok or failed; a route still running at the timeout is read as it stands (its row says where).
    await page
      .waitForFunction(
        (keys) =>
          keys.every((key) =>
            ["ok", "failed"].includes(
              document.querySelector<HTMLElement>(`[data-status="${key}"]`)?.dataset.state ?? "",
            ),
          ),
        ROUTES.map((r) => r.route),
        { timeout: 150_000 },
      )
      .catch(() => {});
    const rows: Record<string, RouteRow> = {};
    for (const { route } of ROUTES)
      rows[route] = await page.evaluate((key) => {
        const text = (selector: string) => document.querySelector(selector)?.textContent ?? "";
        const status = document.querySelector<HTMLElement>(`[data-status="${key}"]`)!;
        return {
          state: status.dataset.state ?? "",
          status: status.textContent ?? "",
          detail: text(`[data-detail="${key}"]`),
          summary: text(`[data-summary="${key}"]`),
        };
      }, route);
    return { setup, rows, errors, configs };
  } finally {
    await context.close();
  }
}

/** The intent's status as the sandbox holds it (not as the page shows it). */
async function sandboxStatus(detail: string): Promise<string> {
  const intentId = /intent ([0-9a-f-]{36})/.exec(detail)?.[1];
  if (!intentId) throw new Error(`no intent id in: ${detail}`);
  const client = createSwapIntentClient({ baseUrl: harness.sandbox().url, apiKey: API_KEY });
  return (await client.getIntentStatus({ intentId })).rawStatus;
}

describe("Permit2 injected wallets in headless Chromium", () => {
  it("runs the EVM route through window.ethereum and the Tron route through TronLink to Fulfilled", async () => {
    harness.assertSetUp();
    const { setup, rows, errors, configs } = await runPermit2Routes({ ethereum: "none", tronLink: "none" });
    // The page's EVM and Tron wallets are the stand-ins' accounts (their keys stayed in the stand-ins).
    expect(setup).toContain(`EVM: ${privateKeyToAccount(configs.ethereum!.privateKey).address}`);
    expect(setup).toMatch(/TRON: T[1-9A-HJ-NP-Za-km-z]{33}/);
    for (const [route, by] of [
      ["evm", "window.ethereum"],
      ["tron", "TronLink"],
    ] as const) {
      expect(rows[route]).toEqual({
        state: "ok",
        status: "Fulfilled",
        detail: expect.stringMatching(/^end · intent [0-9a-f-]{36}$/),
        summary: expect.stringContaining(`Signed in ${by}`),
      });
    }
    expect(errors).toEqual([]);
  });

  it("refuses stand-ins that sign with another key, for another chain or return junk; the intent is never approved", async () => {
    harness.assertSetUp();
    const cases: { tampers: Record<Permit2StandinName, Permit2Tamper>; evm: string; tron: string }[] = [
      {
        tampers: { ethereum: "otherKey", tronLink: "otherKey" },
        evm: "PERMIT2_SIGNER_MISMATCH",
        tron: "PERMIT2_SIGNER_MISMATCH",
      },
      {
        tampers: { ethereum: "otherChain", tronLink: "otherChain" },
        evm: "PERMIT2_CHAIN_ID_MISMATCH",
        tron: "PERMIT2_SIGNER_MISMATCH",
      },
      {
        tampers: { ethereum: "junk", tronLink: "junk" },
        evm: "PERMIT2_SIGNATURE_INVALID",
        tron: "PERMIT2_SIGNATURE_INVALID",
      },
    ];
    const runs = await Promise.all(cases.map((c) => runPermit2Routes(c.tampers)));
    for (const [i, c] of cases.entries()) {
      for (const route of ["evm", "tron"] as const) {
        const row = runs[i]!.rows[route]!;
        expect({ tampers: c.tampers, route, state: row.state, detail: row.detail }).toEqual({
          tampers: c.tampers,
          route,
          state: "failed",
          detail: expect.stringMatching(
            new RegExp(`^failed at sign: ${c[route]}: .+ · intent [0-9a-f-]{36}$`),
          ),
        });
        expect(await sandboxStatus(row.detail)).toBe("Initiated");
      }
    }
  });
});
