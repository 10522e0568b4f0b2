/**
 * `?wallets=injected` for Solana in headless Chromium: a wallet-standard wallet stand-in (test/standins/
 * walletStandard.ts, registered through `@wallet-standard/core` before the page loads, holding its own key) signs
 * the Solana route through `@swapintent/solana/kit`'s wallet-standard adapter to `Fulfilled`; stand-ins that tamper
 * with what they return are refused with the package's code, shown on the page, and the intent is never approved.
 */
import { createSwapIntentClient } from "@swapintent/client";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useInjectedHarness } from "./support/injectedHarness.js";

const API_KEY = "swapintent-browser";
const harness = useInjectedHarness({
  standins: { walletStandard: "walletStandard.ts" },
  tmpPrefix: "swapintent-injected-solana-",
});

/** The page in injected mode with the stand-in (in `mode`) registered before any of the page's scripts run. */
async function openPage(mode: string): Promise<{ page: Page; errors: string[] }> {
  const page = await harness.browser().newPage({ viewport: { width: 1280, height: 560 } });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.addInitScript({ content: harness.script("walletStandard") });
  const query = new URLSearchParams({
    sandbox: harness.sandbox().url,
    wallets: "injected",
    injected: "wallet-standard",
  });
  query.set("standin", mode);
  await page.goto(`${harness.siteUrl()}/?${query}`);
  await page.waitForSelector("body[data-ready]", { timeout: 60_000 });
  return { page, errors };
}

/** Run the Solana route on `page` and read its row when it ends. */
async function runSolanaRoute(page: Page) {
  await page.click('button[data-route="solana"]');
  const cell = '[data-status="solana"]';
  await page.waitForSelector(`${cell}[data-state="ok"], ${cell}[data-state="failed"]`, { timeout: 180_000 });
  return {
    state: await page.getAttribute(cell, "data-state"),
    status: await page.textContent(cell),
    detail: (await page.textContent('[data-detail="solana"]')) ?? "",
    summary: (await page.textContent('[data-summary="solana"]')) ?? "",
  };
}

describe("Solana through an injected wallet-standard wallet, in Chromium", () => {
  it("the stand-in signs the Solana route to Fulfilled; the page never holds the key", async () => {
    harness.assertSetUp();
    const { page, errors } = await openPage("honest");
    expect(await page.getAttribute("body", "data-ready")).toBe("true");
    // The Solana address is the stand-in's account (connected through standard:connect), not a page key.
    const standInAddress = await page.evaluate(async () => {
      const { accounts } = await new Promise<{ accounts: { address: string }[] }>((resolve) => {
        window.dispatchEvent(
          new CustomEvent("wallet-standard:app-ready", {
            detail: {
              register: (...wallets: { accounts: { address: string }[] }[]) => {
                resolve({ accounts: wallets[0]!.accounts });
                return () => {};
              },
            },
          }),
        );
      });
      return accounts[0]?.address;
    });
    expect(standInAddress).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(await page.textContent("#setup")).toContain(`SOLANA: ${standInAddress}`);
    const row = await runSolanaRoute(page);
    expect(row).toEqual({
      state: "ok",
      status: "Fulfilled",
      detail: expect.stringMatching(/^end · intent [0-9a-f-]{36}$/),
      summary: expect.stringContaining("Stand-in Solana Wallet cosigned"),
    });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("stand-ins that tamper with what they return are refused with the package's code, shown on the page, never approved", async () => {
    harness.assertSetUp();
    const client = createSwapIntentClient({ baseUrl: harness.sandbox().url, apiKey: API_KEY });
    const cases = [
      ["message", "SOL_WALLET_MESSAGE_CHANGED"],
      ["other-signature", "SOL_WALLET_SIGNATURES_CHANGED"],
      ["wrong-key", "SOL_SIGNATURE_INVALID"],
    ] as const;
    const rows = await Promise.all(
      cases.map(async ([mode]) => {
        const { page, errors } = await openPage(mode);
        const row = await runSolanaRoute(page);
        await page.close();
        return { row, errors };
      }),
    );
    for (const [i, [mode, code]] of cases.entries()) {
      const { row, errors } = rows[i]!;
      expect(row.state, mode).toBe("failed");
      expect(row.detail, mode).toMatch(new RegExp(`^failed at sign: ${code}: .* · intent [0-9a-f-]{36}$`));
      const intentId = /intent ([0-9a-f-]{36})$/.exec(row.detail)![1]!;
      // No approval reached the service: the intent is still waiting for one.
      expect((await client.getIntentStatus({ intentId })).rawStatus, mode).toBe("Initiated");
      expect(errors, mode).toEqual([]);
    }
  });
});
