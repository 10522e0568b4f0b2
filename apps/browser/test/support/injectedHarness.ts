import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Sandbox, startSandbox } from "@swapintent/sandbox";
import { build as buildScript } from "esbuild";
import type { Browser } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll } from "vitest";
import { assertSignerBuild } from "../assertSignerBuild.js";
import { launchChromium } from "../chromium.js";
import { serveStatic } from "../serveStatic.js";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** What one injected-wallet test file runs against: one browser, one sandbox, the built page, its stand-in scripts. */
export interface InjectedHarness {
  /** Throws the setup's error (e.g. no Chromium), so every test fails with it: nothing here is ever skipped. */
  assertSetUp(): void;
  browser(): Browser;
  sandbox(): Sandbox;
  /** The URL the built page is served at. */
  siteUrl(): string;
  /** The stand-in `name` bundled to a plain script, for `page.addInitScript`. */
  script(name: string): string;
}

/**
 * Registers the file's `beforeAll`/`afterAll`: launches Chromium, starts a sandbox, builds the page with vite and
 * each stand-in (`test/standins/<file>`, by name) with esbuild, serves the page; closes all of it afterwards.
 */
export function useInjectedHarness(params: {
  standins: Record<string, string>;
  tmpPrefix: string;
}): InjectedHarness {
  let outDir: string | undefined;
  let sandbox: Sandbox | undefined;
  let site: { url: string; close: () => Promise<void> } | undefined;
  let browser: Browser | undefined;
  let setupError: unknown;
  const scripts = new Map<string, string>();

  beforeAll(async () => {
    try {
      assertSignerBuild();
      browser = await launchChromium();
      outDir = await mkdtemp(join(tmpdir(), params.tmpPrefix));
      const [started] = await Promise.all([
        startSandbox({ port: 0, dev: true, resolverIntervalMs: 100, log: () => {} }),
        build({
          root: appDir,
          configFile: join(appDir, "vite.config.ts"),
          logLevel: "warn",
          build: { outDir, emptyOutDir: true },
        }),
        ...Object.entries(params.standins).map(async ([name, file]) => {
          const out = await buildScript({
            entryPoints: [join(appDir, "test/standins", file)],
            bundle: true,
            format: "iife",
            platform: "browser",
            target: "es2022",
            write: false,
            logLevel: "silent",
          });
          scripts.set(name, out.outputFiles[0]!.text);
        }),
      ]);
      sandbox = started;
      site = await serveStatic({ dir: outDir });
    } catch (error) {
      setupError = error;
    }
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await sandbox?.close();
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  return {
    assertSetUp() {
      if (setupError) throw setupError;
    },
    browser: () => browser!,
    sandbox: () => sandbox!,
    siteUrl: () => site!.url,
    script(name) {
      const script = scripts.get(name);
      if (script === undefined) throw new Error(`no stand-in named ${name}`);
      return script;
    },
  };
}
