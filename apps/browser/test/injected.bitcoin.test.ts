import { createSwapIntentClient } from "@swapintent/client";
import { describe, expect, it } from "vitest";
import { useInjectedHarness } from "./support/injectedHarness.js";

// `?wallets=injected` with the Bitcoin stand-ins (test/standins): each follows its wallet's documented API, holds its
// own key and signs for real; the page signs through @swapintent/bitcoin/wallets. One browser, one sandbox.

const WALLETS = { unisat: "unisat.ts", "sats-connect": "satsConnect.ts", leather: "leather.ts" } as const;
type WalletName = keyof typeof WALLETS;
const API_KEY = "swapintent-browser";
const harness = useInjectedHarness({ standins: WALLETS, tmpPrefix: "swapintent-browser-btc-" });

interface RouteRow {
  setup: string;
  status: string;
  state: string;
  detail: string;
  summary: string;
  errors: string[];
}

/** Runs the page's Bitcoin route with one stand-in injected before the page loads (and its `tamper`). */
async function runBitcoinRoute(wallet: WalletName, tamper?: string): Promise<RouteRow> {
  const context = await harness.browser().newContext();
  const errors: string[] = [];
  try {
    const page = await context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    await page.addInitScript({ content: harness.script(wallet) });
    const query = new URLSearchParams({
      sandbox: harness.sandbox().url,
      wallets: "injected",
      injected: wallet,
    });
    if (tamper) query.set("tamper", tamper);
    await page.goto(`${harness.siteUrl()}/?${query}`);
    await page.waitForSelector("body[data-ready]", { timeout: 60_000 });
    await page.click('button[data-route="bitcoin"]');
    const cell = '[data-status="bitcoin"]';
    await page.waitForSelector(`${cell}[data-state="ok"], ${cell}[data-state="failed"]`, {
      timeout: 180_000,
    });
    return await page
      .evaluate(() => {
        const text = (selector: string) => document.querySelector(selector)?.textContent ?? "";
        const cell = document.querySelector<HTMLElement>('[data-status="bitcoin"]')!;
        return {
          setup: text("#setup"),
          status: cell.textContent ?? "",
          state: cell.dataset.state ?? "",
          detail: text('[data-detail="bitcoin"]'),
          summary: text('[data-summary="bitcoin"]'),
          errors: [],
        };
      })
      .then((row) => ({ ...row, errors }));
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

describe("Bitcoin injected wallets in headless Chromium", () => {
  it("runs the Bitcoin route through Unisat, sats-connect and Leather stand-ins to Fulfilled", async () => {
    harness.assertSetUp();
    const names = Object.keys(WALLETS) as WalletName[];
    const rows = await Promise.all(names.map((name) => runBitcoinRoute(name)));
    for (const row of rows) {
      expect(row).toEqual({
        setup: expect.stringMatching(/BITCOIN: bcrt1p[0-9a-z]{58}/),
        status: "Fulfilled",
        state: "ok",
        detail: expect.stringMatching(/^end · intent [0-9a-f-]{36}$/),
        summary: expect.stringContaining("Signed 1 input(s) in the injected wallet"),
        errors: [],
      });
    }
  });

  it("refuses tampering stand-ins with the package's coded error on the page; the intent is never approved", async () => {
    harness.assertSetUp();
    const cases: [WalletName, string, string][] = [
      ["unisat", "addOutput", "BTC_TX_MODIFIED"],
      ["unisat", "invalidSignature", "BTC_SIGNATURE_INVALID"],
      ["sats-connect", "wrongSighash", "BTC_SIGHASH_NOT_ALLOWED"],
      ["sats-connect", "finalizeExtra", "BTC_SIGNATURE_UNEXPECTED"],
      ["leather", "globalField", "BTC_PSBT_FIELD_MODIFIED"],
      ["leather", "reject", "BTC_WALLET_REJECTED"],
    ];
    const rows = await Promise.all(cases.map(([wallet, tamper]) => runBitcoinRoute(wallet, tamper)));
    for (const [i, [wallet, tamper, code]] of cases.entries()) {
      const row = rows[i]!;
      expect({ wallet, tamper, state: row.state, detail: row.detail }).toEqual({
        wallet,
        tamper,
        state: "failed",
        detail: expect.stringMatching(new RegExp(`^failed at sign: ${code}: .+ · intent [0-9a-f-]{36}$`)),
      });
      expect(await sandboxStatus(row.detail)).toBe("Initiated");
    }
  });
});
