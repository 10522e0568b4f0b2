/**
 * `?wallets=injected` for Solana in headless Chromium: a wallet-standard wallet stand-in (test/standins/
 * walletStandard.ts, registered through `@wallet-standard/core` before the page loads, holding its own key) signs
 * the Solana route through `@swapintent/solana/kit`'s wallet-standard adapter to `Fulfilled`; stand-ins that tamper
 * with what they return are refused with the package's code, shown on the page, and the intent is never approved.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createClient } from "@swapintent/client";
import { type Sandbox, startSandbox } from "@swapintent/sandbox";
import { build as esbuild } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertSignerBuild } from "./assertSignerBuild.js";
import { launchChromium } from "./chromium.js";
import { serveStatic } from "./serveStatic.js";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const API_KEY = "swapintent-browser";

let outDir: string;
let sandbox: Sandbox | undefined;
let site: { url: string; close: () => Promise<void> } | undefined;
let browser: Browser | undefined;
let standIn: string;

/** A setup failure (e.g. no Chromium) fails every test with its message: nothing here is ever skipped. */
let setupError: unknown;
function assertSetUp(): void {
  if (setupError) throw setupError;
}

beforeAll(async () => {
  try {
    assertSignerBuild();
    browser = await launchChromium();
    outDir = await mkdtemp(join(tmpdir(), "swapintent-injected-solana-"));
    const [started, , script] = await Promise.all([
      startSandbox({ port: 0, dev: true, resolverIntervalMs: 100, log: () => {} }),
      build({
        root: appDir,
        configFile: join(appDir, "vite.config.ts"),
        logLevel: "warn",
        build: { outDir, emptyOutDir: true },
      }),
      esbuild({
        entryPoints: [join(appDir, "test/standins/walletStandard.ts")],
        bundle: true,
        write: false,
        format: "iife",
        platform: "browser",
        target: "es2022",
        logLevel: "silent",
      }),
    ]);
    sandbox = started;
    standIn = script.outputFiles[0]!.text;
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

/** The page in injected mode with the stand-in (in `mode`) registered before any of the page's scripts run. */
async function openPage(mode: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser!.newPage({ viewport: { width: 1280, height: 560 } });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.addInitScript({ content: standIn });
  const query = new URLSearchParams({
    sandbox: sandbox!.url,
    wallets: "injected",
    injected: "wallet-standard",
  });
  query.set("standin", mode);
  await page.goto(`${site!.url}/?${query}`);
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
    assertSetUp();
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
    assertSetUp();
    const client = createClient({ baseUrl: sandbox!.url, apiKey: API_KEY });
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
