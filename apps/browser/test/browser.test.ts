import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Sandbox, startSandbox } from "@swapintent/sandbox";
import type { Browser, Page } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertSignerBuild } from "./assertSignerBuild.js";
import { launchChromium } from "./chromium.js";
import { serveStatic } from "./serveStatic.js";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const ROUTES = ["evm", "tron", "bitcoin", "solana"] as const;

let outDir: string;
let sandbox: Sandbox | undefined;
let site: { url: string; close: () => Promise<void> } | undefined;
let browser: Browser | undefined;
let page: Page;
const pageErrors: string[] = [];
/** Every file Vite resolved for the page's bundle. */
const resolvedIds: string[] = [];
/** The page's JS chunks: file, whether the HTML loads it up front, the packages inside. */
let chunks: {
  fileName: string;
  isEntry: boolean;
  isDynamicEntry: boolean;
  modules: string[];
  size: number;
}[] = [];

/** A setup failure (e.g. no Chromium) fails every test with its message: nothing here is ever skipped. */
let setupError: unknown;
function assertSetUp(): void {
  if (setupError) throw setupError;
}

beforeAll(async () => {
  try {
    await setUp();
  } catch (error) {
    setupError = error;
  }
});

async function setUp(): Promise<void> {
  // The signer packages' dist is built by test/globalSetup.ts.
  assertSignerBuild();
  // First, before anything needs closing: a browser that cannot start fails every test with its reason.
  browser = await launchChromium();
  outDir = await mkdtemp(join(tmpdir(), "swapintent-browser-"));
  const [started, output] = await Promise.all([
    startSandbox({ port: 0, dev: true, resolverIntervalMs: 100, log: () => {} }),
    build({
      root: appDir,
      configFile: join(appDir, "vite.config.ts"),
      logLevel: "warn",
      build: { outDir, emptyOutDir: true },
      plugins: [
        {
          name: "record-resolved-ids",
          enforce: "post",
          load(id) {
            resolvedIds.push(id);
            return null;
          },
        },
      ],
    }),
  ]);
  sandbox = started;
  const outputs = (Array.isArray(output) ? output : [output]) as Array<{
    output: Array<{
      type: string;
      fileName: string;
      isEntry?: boolean;
      isDynamicEntry?: boolean;
      modules?: object;
      code?: string;
    }>;
  }>;
  chunks = outputs
    .flatMap((o) => o.output)
    .filter((c) => c.type === "chunk")
    .map((c) => ({
      fileName: c.fileName,
      isEntry: c.isEntry === true,
      isDynamicEntry: c.isDynamicEntry === true,
      modules: Object.keys(c.modules ?? {}),
      size: c.code?.length ?? 0,
    }));
  site = await serveStatic({ dir: outDir });
  page = await browser.newPage({ viewport: { width: 1280, height: 560 } });
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") pageErrors.push(message.text());
  });
  await page.goto(`${site.url}/?sandbox=${encodeURIComponent(sandbox.url)}`);
  await page.waitForSelector("body[data-ready]", { timeout: 60_000 });
}

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await sandbox?.close();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

describe("the page in headless Chromium (published dist, no polyfills)", () => {
  it("has a plain Vite config: no plugins (no Node polyfills), no define (no global shim), no source condition", async () => {
    const config = (await import("../vite.config.js")).default as Record<string, unknown>;
    expect(Object.keys(config)).toEqual(["build"]);
  });

  it("bundles the signer packages' published dist (not their sources), tronweb included", () => {
    assertSetUp();
    const ours = resolvedIds.filter((id) => id.includes("/packages/"));
    for (const name of ["client", "permit2", "bitcoin", "solana"])
      expect(ours.some((id) => id.includes(`/packages/${name}/dist/`))).toBe(true);
    // Only the private, never-published support package (@swapintent/testing: the dev API client, the wallet
    // shape) is compiled from source; every published package comes from its dist.
    expect(ours.filter((id) => id.includes("/src/") && !id.includes("/packages/testing/src/"))).toEqual([]);
    expect(resolvedIds.some((id) => /tronweb\/lib\/esm\//.test(id))).toBe(true);
    expect(resolvedIds.filter((id) => id.includes("__vite-browser-external"))).toEqual([]);
  });

  it("keeps tronweb out of the entry chunk: it is loaded only when the Tron route signs", () => {
    assertSetUp();
    const entry = chunks.filter((c) => c.isEntry);
    expect(entry).toHaveLength(1);
    expect(entry[0]!.modules.filter((m) => m.includes("/tronweb/"))).toEqual([]);
    const tron = chunks.filter((c) => c.modules.some((m) => m.includes("/tronweb/")));
    expect(tron.length).toBeGreaterThan(0);
    for (const chunk of tron) expect(chunk.isDynamicEntry).toBe(true);
    console.log(
      chunks
        .map((c) => `${c.fileName} ${(c.size / 1000).toFixed(0)} kB${c.isDynamicEntry ? " (lazy)" : ""}`)
        .join(", "),
    );
  });

  it("loads, generates one wallet per chain and lists the four routes", async () => {
    assertSetUp();
    expect(await page.getAttribute("body", "data-ready")).toBe("true");
    const setup = await page.textContent("#setup");
    expect(setup).toMatch(/EVM: 0x[0-9a-fA-F]{40}/);
    expect(setup).toMatch(/TRON: T[1-9A-HJ-NP-Za-km-z]{33}/);
    expect(setup).toMatch(/BITCOIN: bcrt1p[02-9ac-hj-np-z]{58}/);
    expect(setup).toMatch(/SOLANA: [1-9A-HJ-NP-Za-km-z]{32,44}/);
    expect(await page.locator("button[data-route]").count()).toBe(ROUTES.length);
  });

  it("runs EVM, Tron, Bitcoin and Solana routes to Fulfilled", async () => {
    assertSetUp();
    for (const route of ROUTES) await page.click(`button[data-route="${route}"]`);
    // One fixed file, overwritten by each run (nothing piles up in the temp folder); taken even when a route hangs.
    const screenshot = join(tmpdir(), "swapintent-browser.png");
    try {
      for (const route of ROUTES) {
        const cell = `[data-status="${route}"]`;
        await page.waitForSelector(`${cell}[data-state="ok"], ${cell}[data-state="failed"]`, {
          timeout: 180_000,
        });
      }
    } finally {
      await page.screenshot({ path: screenshot, fullPage: true });
      console.log(`screenshot: ${screenshot}`);
    }
    const rows = await page.$$eval("[data-status]", (cells) =>
      cells.map((cell) => ({
        route: (cell as HTMLElement).dataset.status,
        status: cell.textContent,
        detail: document.querySelector(`[data-detail="${(cell as HTMLElement).dataset.status}"]`)
          ?.textContent,
        summary: document.querySelector(`[data-summary="${(cell as HTMLElement).dataset.status}"]`)
          ?.textContent,
      })),
    );
    expect(rows).toEqual(
      ROUTES.map((route) => ({
        route,
        status: "Fulfilled",
        detail: expect.stringMatching(/^end · intent [0-9a-f-]{36}$/),
        // The signer package's own words for what it verified and signed reached the page.
        summary: expect.stringMatching(/\S/),
      })),
    );
    expect(pageErrors).toEqual([]);
  });
});
