import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createClient } from "@swapintent/client";
import { type Sandbox, startSandbox } from "@swapintent/sandbox";
import { build as buildScript } from "esbuild";
import type { Browser } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertSignerBuild } from "./assertSignerBuild.js";
import { launchChromium } from "./chromium.js";
import { serveStatic } from "./serveStatic.js";

// `?wallets=injected` with the Bitcoin stand-ins (test/standins): each follows its wallet's documented API, holds its
// own key and signs for real; the page signs through @swapintent/bitcoin/wallets. One browser, one sandbox.

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const WALLETS = { unisat: "unisat.ts", "sats-connect": "satsConnect.ts", leather: "leather.ts" } as const;
type WalletName = keyof typeof WALLETS;
const API_KEY = "swapintent-browser";

let outDir: string;
let sandbox: Sandbox | undefined;
let site: { url: string; close: () => Promise<void> } | undefined;
let browser: Browser | undefined;
const standins = new Map<WalletName, string>();

/** A setup failure (e.g. no Chromium) fails every test with its message: nothing here is ever skipped. */
let setupError: unknown;
function assertSetUp(): void {
  if (setupError) throw setupError;
}

beforeAll(async () => {
  try {
    assertSignerBuild();
    browser = await launchChromium();
    outDir = await mkdtemp(join(tmpdir(), "swapintent-browser-btc-"));
    const [started] = await Promise.all([
      startSandbox({ port: 0, dev: true, resolverIntervalMs: 100, log: () => {} }),
      build({
        root: appDir,
        configFile: join(appDir, "vite.config.ts"),
        logLevel: "warn",
        build: { outDir, emptyOutDir: true },
      }),
      ...Object.entries(WALLETS).map(async ([name, file]) => {
        const out = await buildScript({
          entryPoints: [join(appDir, "test/standins", file)],
          bundle: true,
          format: "iife",
          platform: "browser",
          write: false,
        });
        standins.set(name as WalletName, out.outputFiles[0]!.text);
      }),
    ]);
    sandbox = started;
    site = await serveStatic({ dir: outDir });
  } catch (error) {
    setupError = error;
  }
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await sandbox?.close();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

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
  const context = await browser!.newContext();
  const errors: string[] = [];
  try {
    const page = await context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    await page.addInitScript({ content: standins.get(wallet)! });
    const query = new URLSearchParams({ sandbox: sandbox!.url, wallets: "injected", injected: wallet });
    if (tamper) query.set("tamper", tamper);
    await page.goto(`${site!.url}/?${query}`);
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
  const client = createClient({ baseUrl: sandbox!.url, apiKey: API_KEY });
  return (await client.getIntentStatus({ intentId })).rawStatus;
}

describe("Bitcoin injected wallets in headless Chromium", () => {
  it("runs the Bitcoin route through Unisat, sats-connect and Leather stand-ins to Fulfilled", async () => {
    assertSetUp();
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
    assertSetUp();
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
