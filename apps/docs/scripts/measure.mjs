#!/usr/bin/env node
// Writes the site's "Sizes and speeds" page (pages/reference/measurements.md) from the tools that measure them:
// size-limit (each package's .size-limit.json, the only place budgets are kept) and the packages' vitest benchmarks
// (what `pnpm bench` runs per package), and the browser bundle report of apps/browser. Nothing on that page is
// typed by hand.
//   node scripts/measure.mjs                 sizes and benchmarks (needs `pnpm build` first)
//   node scripts/measure.mjs --sizes-only    sizes only; the benchmark section keeps its last measurement
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = join(appDir, "..", "..");
const packages = ["client", "permit2", "bitcoin", "solana"];
const page = join(appDir, "pages", "reference", "measurements.md");
const benchMarker = "<!-- benchmarks -->";

/** Runs a command in `cwd`; returns its stdout, or throws with its output. */
function run(command, args, cwd) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, FORCE_COLOR: "0" },
  });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} in ${cwd} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

const kB = (bytes) => `${(bytes / 1000).toFixed(2)} kB`;

/** The size-limit table of every package: each check's size against its budget, in the compression it uses. */
function sizeSection() {
  const rows = [];
  for (const name of packages) {
    const dir = join(repoRoot, "packages", name);
    const config = JSON.parse(readFileSync(join(dir, ".size-limit.json"), "utf8"));
    // size-limit exits 1 when a check is over its budget, and still prints every result: the page shows it.
    const sizeLimit = spawnSync("pnpm", ["exec", "size-limit", "--json"], { cwd: dir, encoding: "utf8" });
    const results = JSON.parse(sizeLimit.stdout);
    for (const result of results) {
      const check = config.find((c) => c.name === result.name) ?? {};
      const compression = check.gzip ? "gzip" : check.brotli === false ? "none" : "brotli";
      const headroom = result.sizeLimit
        ? `${(((result.sizeLimit - result.size) / result.sizeLimit) * 100).toFixed(1)} %`
        : "";
      rows.push(
        `| @swapintent/${name} | ${result.name} | ${compression} | ${kB(result.size)} | ${result.sizeLimit ? kB(result.sizeLimit) : ""} | ${headroom} | ${result.passed ? "yes" : "**no**"} |`,
      );
    }
  }
  return [
    "## Bundle sizes",
    "",
    "Each check of the packages' `.size-limit.json` (peers excluded, minified, in the compression the check names),",
    "measured by size-limit on the built `dist`. The budgets are the ones in `.size-limit.json`; `pnpm size` fails",
    "when a check is over its budget.",
    "",
    "| package | check | compression | size | budget | headroom | within budget |",
    "| --- | --- | --- | --: | --: | --: | --- |",
    ...rows,
  ].join("\n");
}

/** The benchmark tables of every package: operations per second and each case as a multiple of its group's fastest. */
function benchSection() {
  const out = mkdtempSync(join(tmpdir(), "swapintent-bench-"));
  const lines = [
    "## Speeds",
    "",
    "The packages' vitest benchmarks (`pnpm bench` runs the same files), each case against the bare library call",
    "it wraps: what verifying before signing costs. Ratios matter more than operations per second, which follow",
    "the machine and its load.",
  ];
  try {
    for (const name of packages) {
      const dir = join(repoRoot, "packages", name);
      const file = join(out, `${name}.json`);
      run("pnpm", ["exec", "vitest", "bench", "--run", "--outputJson", file], dir);
      const report = JSON.parse(readFileSync(file, "utf8"));
      for (const benchFile of report.files ?? []) {
        for (const group of benchFile.groups ?? []) {
          const fastest = Math.max(...group.benchmarks.map((b) => b.hz));
          lines.push(
            "",
            `### \`@swapintent/${name}\`: ${group.fullName.split(" > ").slice(1).join(" > ") || group.fullName}`,
            "",
          );
          lines.push(
            "| case | operations/s | mean | time as a multiple of the fastest |",
            "| --- | --: | --: | --: |",
          );
          for (const b of group.benchmarks) {
            lines.push(
              `| ${b.name} | ${Math.round(b.hz).toLocaleString("en")} | ${b.mean.toFixed(3)} ms | ${(fastest / b.hz).toFixed(2)}x |`,
            );
          }
        }
      }
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return lines.join("\n");
}

const sizesOnly = process.argv.includes("--sizes-only");
const previous = existsSync(page) ? readFileSync(page, "utf8") : "";
const keptBench = previous.includes(benchMarker)
  ? previous.slice(previous.indexOf(benchMarker) + benchMarker.length).trim()
  : "";
const { createBundleReport } = await import(
  join(repoRoot, "apps", "browser", "scripts", "bundle-report.mjs")
);
const bundles = await createBundleReport();
const sizes = `${sizeSection()}\n\n${bundles.markdown.trim()}`;
const bench = sizesOnly
  ? keptBench || "## Speeds\n\nNot measured yet: run `pnpm docs:measure`."
  : benchSection();
const machine = `${availableParallelism()} cores, load average ${loadavg()
  .map((l) => l.toFixed(1))
  .join(" / ")}, Node ${process.version}`;
writeFileSync(
  page,
  [
    "# Sizes and speeds",
    "",
    `Generated by \`pnpm docs:measure\` (apps/docs/scripts/measure.mjs) on ${new Date().toISOString().slice(0, 10)}: ${machine}.`,
    "Do not edit this page by hand; run the script again.",
    "",
    sizes,
    "",
    benchMarker,
    "",
    bench,
    "",
  ].join("\n"),
);
console.log(`wrote ${page}`);
