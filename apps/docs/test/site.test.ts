/**
 * The documentation site in headless Chromium: the site is built as the README says (VitePress pages, then the API
 * reference from the TSDoc), from sources that no git repository describes, then every page is opened from the home
 * page by following links. Every built page must be reached, answer 200, render a heading and log no console error;
 * every internal link must lead to a page that exists.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../browser/test/chromium.js";
import { serveSite } from "./serveSite.js";

let outDir: string;
let site: { url: string; close: () => Promise<void> };
let browser: Browser;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), "swapintent-site-"));
  const emptyDir = await mkdtemp(join(tmpdir(), "swapintent-nogit-"));
  // The site's build script in its own process, as `pnpm docs:build` runs it, with no git at all: GIT_DIR names an
  // empty folder, as in a copy of the sources without a repository or a remote.
  await runBuild({ outDir, env: { ...process.env, GIT_DIR: emptyDir } });
  await rm(emptyDir, { recursive: true, force: true });
  site = await serveSite({ dir: outDir });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

/** Runs scripts/buildSite.mjs; rejects with its output when it fails. */
function runBuild({ outDir, env }: { outDir: string; env: NodeJS.ProcessEnv }): Promise<void> {
  const script = new URL("../scripts/buildSite.mjs", import.meta.url).pathname;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, "--out", outDir], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`site build exit ${code}:\n${output}`)),
    );
  });
}

/** Every .html file of the built site, as a URL path. */
async function builtPages(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(".html") && e.name !== "404.html")
    .map((e) => `/${relative(dir, join(e.parentPath, e.name)).split(sep).join("/")}`);
}

interface Visit {
  status: number;
  heading: string;
  consoleErrors: string[];
  links: string[];
}

/** Opens one page and reads what the test checks. */
async function visit(path: string): Promise<Visit> {
  const page = await browser.newPage();
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => consoleErrors.push(error.message));
  try {
    const response = await page.goto(new URL(path, site.url).href, { waitUntil: "load" });
    const heading =
      (await page
        .locator("h1")
        .first()
        .textContent({ timeout: 10_000 })
        .catch(() => "")) ?? "";
    const links = await page.$$eval("a[href]", (anchors) =>
      anchors.map((a) => (a as HTMLAnchorElement).href),
    );
    return { status: response?.status() ?? 0, heading: heading.trim(), consoleErrors, links };
  } finally {
    await page.close();
  }
}

/** The internal links and assets (`href`, `src`) of one built HTML file, as paths of the site. */
function internalTargets(html: string, pagePath: string): string[] {
  const base = new URL(pagePath, "http://site");
  const targets: string[] = [];
  for (const match of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
    const raw = match[1]!.replaceAll("&amp;", "&");
    if (
      raw === "" ||
      raw.startsWith("#") ||
      (/^(?:[a-z][a-z0-9+.-]*:)/i.test(raw) && !raw.startsWith("http://site"))
    )
      continue;
    const target = new URL(raw, base);
    targets.push(target.pathname.endsWith("/") ? `${target.pathname}index.html` : target.pathname);
  }
  return targets;
}

describe("the documentation site", () => {
  it("every guide and reference page, and every API page a guide links to, renders in Chromium with a heading and no console error", async () => {
    const pages = await builtPages(outDir);
    const sitePages = pages.filter((p) => !p.startsWith("/api/"));
    expect(sitePages).toEqual(
      expect.arrayContaining(["/index.html", "/guide/evm.html", "/reference/threat-model.html"]),
    );
    const queue = [...sitePages];
    const seen = new Set(queue);
    const problems: string[] = [];
    const worker = async () => {
      for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
        const result = await visit(path);
        if (result.status !== 200) problems.push(`${path}: HTTP ${result.status}`);
        else if (result.heading === "") problems.push(`${path}: no heading rendered`);
        for (const error of result.consoleErrors) problems.push(`${path}: console error: ${error}`);
        if (path.startsWith("/api/")) continue; // the API pages a guide links to, not the whole reference
        for (const href of result.links) {
          const target = new URL(href);
          if (target.origin !== new URL(site.url).origin || !target.pathname.startsWith("/api/")) continue;
          if (!seen.has(target.pathname)) {
            seen.add(target.pathname);
            queue.push(target.pathname);
          }
        }
      }
    };
    while (queue.length > 0) await Promise.all([worker(), worker(), worker()]);
    expect(problems).toEqual([]);
    expect([...seen].filter((p) => p.startsWith("/api/")).length).toBeGreaterThan(10);
  });

  it("no internal link or asset of any page, the API reference included, is broken", async () => {
    const pages = await builtPages(outDir);
    expect(pages.length).toBeGreaterThan(300); // the guides, the reference pages and the API reference
    const files = new Set(
      (await readdir(outDir, { recursive: true })).map((f) => `/${f.split(sep).join("/")}`),
    );
    const broken: string[] = [];
    for (const page of pages) {
      const html = await readFile(join(outDir, page), "utf8");
      for (const target of internalTargets(html, page)) {
        if (!files.has(target)) broken.push(`${page} -> ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
