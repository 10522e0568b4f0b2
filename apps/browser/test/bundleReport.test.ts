import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
// @ts-expect-error -- a plain .mjs script without types
import { createBundleReport, ENTRIES } from "../scripts/bundle-report.mjs";
import { assertSignerBuild } from "./assertSignerBuild.js";

interface Builtin {
  name: string;
  importer: string;
  resolved: string | null;
  violation: boolean;
}
interface Variant {
  minified: number;
  gzip: number;
  brotli: number;
  inputs: string[];
  externalImports: string[];
  builtins: Builtin[];
  freeGlobals: string[];
}
interface Row {
  specifier: string;
  without: Variant;
  withPeers: Variant;
  budgets: { name: string; limitBytes: number; measured: number }[];
}
interface Report {
  rows: Row[];
  violations: string[];
  markdown: string;
}

const repoDir = join(dirname(fileURLToPath(import.meta.url)), "../../..");
let report: Report;

let setupError: unknown;

beforeAll(async () => {
  try {
    assertSignerBuild();
    report = (await createBundleReport()) as Report;
  } catch (error) {
    setupError = error;
  }
});

describe("bundle report of the published entry points (browser platform)", () => {
  // A setup failure fails every test with its message (never a silent skip).
  beforeEach(() => {
    if (setupError) throw setupError;
  });

  it("measures client, permit2 root/evm/tron, bitcoin root/wallets and solana root/kit", () => {
    expect(report.rows.map((r) => r.specifier)).toEqual([
      "@swapintent/client",
      "@swapintent/permit2",
      "@swapintent/permit2/evm",
      "@swapintent/permit2/tron",
      "@swapintent/bitcoin",
      "@swapintent/bitcoin/wallets",
      "@swapintent/solana",
      "@swapintent/solana/kit",
    ]);
    for (const row of report.rows) {
      expect(row.without.gzip).toBeGreaterThan(0);
      expect(row.without.gzip).toBeLessThan(row.without.minified);
      expect(row.withPeers.minified).toBeGreaterThanOrEqual(row.without.minified);
    }
  });

  it("finds no violation: no Node built-in, no free Node global in our code, no tronweb in the EVM entries, budgets hold", () => {
    expect(report.violations).toEqual([]);
  });

  it("no entry asks for a Node built-in that a browser cannot resolve, and our dist asks for none at all", () => {
    for (const row of report.rows) {
      expect(row.without.builtins).toEqual([]);
      expect(row.without.freeGlobals).toEqual([]);
      expect(row.withPeers.builtins.filter((b) => b.resolved === null)).toEqual([]);
    }
  });

  it("the Solana Kit entry pulls no @solana/web3.js, even with every peer bundled; the root entry does", () => {
    const kit = report.rows.find((r) => r.specifier === "@swapintent/solana/kit")!;
    for (const variant of [kit.without, kit.withPeers]) {
      expect(variant.inputs.filter((p) => p.includes("@solana/web3.js"))).toEqual([]);
      expect(variant.externalImports ?? []).not.toContain("@solana/web3.js");
    }
    const root = report.rows.find((r) => r.specifier === "@swapintent/solana")!;
    expect(root.withPeers.inputs.some((p) => p.includes("@solana/web3.js"))).toBe(true);
  });

  it("the EVM entries contain no tronweb; the Tron entry loads it only as its peer", () => {
    for (const specifier of ["@swapintent/permit2", "@swapintent/permit2/evm"]) {
      const row = report.rows.find((r) => r.specifier === specifier)!;
      for (const variant of [row.without, row.withPeers]) {
        expect(variant.inputs.filter((p) => p.includes("tronweb"))).toEqual([]);
        expect(variant.externalImports).not.toContain("tronweb");
      }
    }
    const tron = report.rows.find((r) => r.specifier === "@swapintent/permit2/tron")!;
    expect(tron.without.externalImports).toContain("tronweb");
  });

  it("every size-limit budget on these entries holds when measured the same way", () => {
    const budgets = report.rows.flatMap((r) => r.budgets);
    expect(budgets.length).toBeGreaterThanOrEqual(10);
    expect(budgets.filter((b) => b.measured > b.limitBytes)).toEqual([]);
  });

  it("the site's sizes page lists every entry with gzip sizes within 15 % of today's (else run pnpm docs:measure)", () => {
    const doc = readFileSync(join(repoDir, "apps/docs/pages/reference/measurements.md"), "utf8");
    for (const row of report.rows) {
      const line = doc.split("\n").find((l) => l.startsWith(`| \`${row.specifier}\` |`));
      expect(line, `${row.specifier} is missing from the sizes page: run pnpm docs:measure`).toBeDefined();
      const gzip = Number(line!.split("|")[4]!.trim().replace(" kB", "")) * 1000;
      expect(
        Math.abs(gzip - row.without.gzip) / row.without.gzip,
        `the sizes page is stale for ${row.specifier}: run pnpm docs:measure`,
      ).toBeLessThan(0.15);
    }
  });

  it("catches a leaky module: node:fs, an unresolvable crypto, a free Buffer and tronweb in an EVM entry", async () => {
    const leaky = (await createBundleReport({
      entries: [{ specifier: "./test/fixtures/leaky.js", evm: true }],
    })) as Report;
    const row = leaky.rows[0]!;
    expect(row.without.builtins.map((b) => [b.name, b.resolved, b.violation])).toEqual(
      expect.arrayContaining([
        ["node:fs", null, true],
        ["crypto", null, true],
      ]),
    );
    expect(row.without.freeGlobals).toContain("Buffer");
    expect(leaky.violations).toEqual(
      expect.arrayContaining([
        expect.stringContaining("Node built-in `node:fs`"),
        expect.stringContaining("Node built-in `crypto`"),
        expect.stringContaining("uses Node globals without importing them: Buffer"),
        expect.stringContaining("the EVM entry bundles tronweb"),
      ]),
    );
  });

  it("ENTRIES names each entry's dist file as the package exports it", () => {
    for (const entry of ENTRIES as { pkg: string; subpath: string; dir: string; file: string }[]) {
      const manifest = JSON.parse(readFileSync(join(repoDir, "packages", entry.dir, "package.json"), "utf8"));
      expect(manifest.name).toBe(entry.pkg);
      expect(manifest.exports[entry.subpath].import.default).toBe(`./${entry.file}`);
    }
  });
});
