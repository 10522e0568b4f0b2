#!/usr/bin/env node
/**
 * Bundle report for the published entry points of the signer packages, bundled for the BROWSER platform.
 *
 * For each entry (resolved by package name from apps/browser, so through the packages' normal `import` export
 * condition and their built `dist`, never the `swapintent-source` condition) it bundles `export * from "<entry>"`
 * with esbuild (minified, ESM), twice: with the package's peer dependencies external, and with them bundled in.
 * It records the minified, gzip and brotli sizes, what the bundle pulls in (bytes per package), every Node built-in
 * the code asks for, and checks:
 *   - no entry pulls a Node built-in: a `node:*` import, or a bare built-in name (`fs`, `crypto`, `buffer`...) that
 *     does not resolve to a real browser module (an npm package of that name that a library depends on, e.g. the
 *     `buffer` package under @solana/web3.js, or a `browser` field mapping) is a violation; our own dist must not
 *     import any built-in name at all;
 *   - the EVM entries (permit2 root and `./evm`) contain no tronweb;
 *   - the size-limit budget (`.size-limit.json`, `import: "*"` on the same dist file, peers excluded) is not below
 *     what this report measures with the budget's own compression.
 *
 * `node scripts/bundle-report.mjs` prints the report and exits 1 on a violation (`pnpm docs:measure` puts it on the site);
 * `createBundleReport()` is what the test in test/bundleReport.test.ts runs.
 */
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { build } from "esbuild";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const repoDir = join(appDir, "../..");

/** The entries of the report: package, subpath, its dist file and which peers it may import. */
export const ENTRIES = [
  { pkg: "@swapintent/client", subpath: ".", dir: "client", file: "dist/index.js" },
  { pkg: "@swapintent/permit2", subpath: ".", dir: "permit2", file: "dist/index.js", evm: true },
  { pkg: "@swapintent/permit2", subpath: "./evm", dir: "permit2", file: "dist/evm.js", evm: true },
  { pkg: "@swapintent/permit2", subpath: "./tron", dir: "permit2", file: "dist/tron.js" },
  { pkg: "@swapintent/bitcoin", subpath: ".", dir: "bitcoin", file: "dist/index.js" },
  { pkg: "@swapintent/bitcoin", subpath: "./wallets", dir: "bitcoin", file: "dist/wallets.js" },
  { pkg: "@swapintent/solana", subpath: ".", dir: "solana", file: "dist/index.js" },
  { pkg: "@swapintent/solana", subpath: "./kit", dir: "solana", file: "dist/kit.js" },
];

const builtins = new Set(builtinModules.filter((m) => !m.startsWith("_")));
const builtinFilter = new RegExp(
  `^(node:.*|${[...builtins].map((m) => m.replace(/[/.]/g, "\\$&")).join("|")})(/.*)?$`,
);

/** `node_modules/.pnpm/x/node_modules/@a/b/...` -> `@a/b`; `packages/client/dist/...` -> `@swapintent/client`. */
function packageOf(path) {
  const parts = path.split(/[\\/]/);
  const nm = parts.lastIndexOf("node_modules");
  if (nm >= 0) return parts[nm + 1]?.startsWith("@") ? `${parts[nm + 1]}/${parts[nm + 2]}` : parts[nm + 1];
  const pk = parts.lastIndexOf("packages");
  if (pk >= 0) return `@swapintent/${parts[pk + 1]}`;
  return path;
}

function builtinGuard(found) {
  return {
    name: "builtin-guard",
    setup(b) {
      b.onResolve({ filter: builtinFilter }, async (args) => {
        if (args.pluginData?.inner) return undefined;
        const importer = relative(repoDir, args.importer);
        const base = args.path.replace(/^node:/, "").split("/")[0];
        // Our own code (the packages' dist, or a module of this repo outside node_modules) imports no built-in at all.
        const ownCode = !importer.includes("node_modules");
        if (args.path.startsWith("node:") || !builtins.has(base)) {
          found.push({ name: args.path, importer, resolved: null, violation: true });
          return { path: args.path, external: true };
        }
        const result = await b.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { inner: true },
        });
        const resolvedTo = result.errors.length > 0 ? null : result.path ? packageOf(result.path) : "(empty)";
        found.push({
          name: args.path,
          importer,
          resolved: resolvedTo,
          violation: ownCode || resolvedTo === null,
        });
        if (result.errors.length > 0) return { path: args.path, external: true };
        return result;
      });
    },
  };
}

/** Node globals a browser does not have: each free reference becomes a marker the report looks for. */
const NODE_GLOBALS = ["Buffer", "process", "global", "__dirname", "__filename", "setImmediate", "require"];
const marker = (name) => `__swapintent_free_${name}__`;

async function bundle({ specifier, external, names = "*" }) {
  const found = [];
  const contents =
    names === "*"
      ? `export * from ${JSON.stringify(specifier)};`
      : `export ${names} from ${JSON.stringify(specifier)};`;
  const probe = await build({
    stdin: { contents, resolveDir: appDir, loader: "js" },
    bundle: true,
    write: false,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    logLevel: "silent",
    external,
    define: Object.fromEntries(NODE_GLOBALS.map((g) => [g, marker(g)])),
    plugins: [builtinGuard([])],
  });
  const probeText = new TextDecoder().decode(probe.outputFiles[0].contents);
  const freeGlobals = NODE_GLOBALS.filter((g) => probeText.includes(marker(g)));
  const result = await build({
    stdin: { contents, resolveDir: appDir, loader: "js" },
    bundle: true,
    write: false,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    metafile: true,
    logLevel: "silent",
    external,
    plugins: [builtinGuard(found)],
  });
  const code = result.outputFiles[0].contents;
  const output = Object.values(result.metafile.outputs)[0];
  const byPackage = new Map();
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    if (bytesInOutput === 0) continue;
    const name = packageOf(path);
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
  }
  return {
    minified: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    brotli: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    packages: [...byPackage.entries()].sort((a, b) => b[1] - a[1]),
    externalImports: [...new Set(output.imports.filter((i) => i.external).map((i) => i.path))].sort(),
    inputs: Object.keys(output.inputs),
    builtins: found,
    freeGlobals,
  };
}

function readJson(path) {
  return JSON.parse(readFileSync(path, "utf8"));
}

/** Builds every entry and returns the measurements, the violations and the Markdown table. */
/**
 * Builds every entry and returns the measurements, the violations and the Markdown table. `entries` defaults to
 * {@link ENTRIES}; an entry with a `specifier` (resolved from apps/browser) and no `dir` is bundled without
 * peers or budgets (the tests use that to prove the checks catch a leaky module).
 */
export async function createBundleReport({ entries = ENTRIES } = {}) {
  const rows = [];
  const violations = [];
  for (const entry of entries) {
    const pkgDir = entry.dir ? join(repoDir, "packages", entry.dir) : null;
    const manifest = pkgDir ? readJson(join(pkgDir, "package.json")) : {};
    const peers = Object.keys(manifest.peerDependencies ?? {});
    const external = peers.flatMap((p) => [p, `${p}/*`]);
    const specifier =
      entry.specifier ?? (entry.subpath === "." ? entry.pkg : `${entry.pkg}/${entry.subpath.slice(2)}`);
    const without = await bundle({ specifier, external });
    const withPeers = await bundle({ specifier, external: [] });
    // Every size-limit check on this dist file, measured here the same way (its import, its ignore list, its
    // compression), so the table and the budgets cannot drift apart unnoticed.
    const budgets = [];
    const checks = pkgDir ? readJson(join(pkgDir, ".size-limit.json")) : [];
    for (const check of checks.filter((b) => b.path === entry.file)) {
      const compression = check.gzip === true ? "gzip" : check.brotli === false ? "none" : "brotli";
      const measured = await bundle({
        specifier,
        external: (check.ignore ?? []).flatMap((p) => [p, `${p}/*`]),
        names: check.import ?? "*",
      });
      budgets.push({
        name: check.name,
        import: check.import ?? "*",
        limit: check.limit,
        limitBytes: Math.round(Number.parseFloat(check.limit) * (check.limit.endsWith("kB") ? 1000 : 1)),
        compression,
        measured:
          compression === "gzip"
            ? measured.gzip
            : compression === "none"
              ? measured.minified
              : measured.brotli,
      });
    }
    const budget = budgets.find((b) => b.import === "*") ?? null;
    const row = { ...entry, specifier, peers, without, withPeers, budget, budgets };
    rows.push(row);

    for (const b of [...without.builtins, ...withPeers.builtins].filter((x) => x.violation))
      violations.push(`${specifier}: Node built-in \`${b.name}\` imported by ${b.importer}`);
    if (without.freeGlobals.length > 0)
      violations.push(
        `${specifier}: uses Node globals without importing them: ${without.freeGlobals.join(", ")}`,
      );
    if (entry.evm)
      for (const variant of [without, withPeers]) {
        if (variant.inputs.some((p) => /[\\/]tronweb[\\/]/.test(p)))
          violations.push(`${specifier}: the EVM entry bundles tronweb`);
        if (variant.externalImports.some((p) => p === "tronweb" || p.startsWith("tronweb/")))
          violations.push(`${specifier}: the EVM entry imports tronweb`);
      }
    for (const b of budgets)
      if (b.measured > b.limitBytes)
        violations.push(
          `${specifier} (${b.name}): ${b.measured} B ${b.compression} is over its size-limit budget ${b.limit}`,
        );
  }
  return { rows, violations, markdown: formatMarkdown(rows) };
}

const kB = (n) => `${(n / 1000).toFixed(2)} kB`;

function formatMarkdown(rows) {
  const lines = [
    "## Bundle sizes in a browser bundle",
    "",
    "Measured by `apps/browser/scripts/bundle-report.mjs`: esbuild bundles",
    '`export * from "<entry>"` for the browser platform (minified, ESM), resolving the entry by its package name through',
    "the normal `import` export condition (the built `dist`). Sizes in kB = 1000 bytes; gzip level 9, brotli quality 11.",
    '"Peers excluded" leaves the package\'s peer dependencies external (what the package itself adds; dependencies such',
    'as `@swapintent/client`, `ox`, `zod` and `@noble/curves` are included); "peers included" bundles everything the',
    'entry imports. The size-limit budget is the package\'s own `.size-limit.json` entry for `import: "*"` (peers',
    "excluded), in the compression it uses; `test/bundleReport.test.ts` fails when a measurement is over it, when an",
    "entry pulls a Node built-in, or when an EVM entry contains tronweb.",
    "",
    "| entry | peers | min (peers excl.) | gzip (peers excl.) | brotli (peers excl.) | size-limit budget | min (peers incl.) | gzip (peers incl.) |",
    "|---|---|--:|--:|--:|--:|--:|--:|",
  ];
  for (const r of rows) {
    const budget = r.budget ? `${r.budget.limit} ${r.budget.compression}` : "— (see below)";
    lines.push(
      `| \`${r.specifier}\` | ${r.peers.length ? r.peers.map((p) => `\`${p}\``).join(", ") : "none"} | ${kB(r.without.minified)} | ${kB(r.without.gzip)} | ${kB(r.without.brotli)} | ${budget} | ${kB(r.withPeers.minified)} | ${kB(r.withPeers.gzip)} |`,
    );
  }
  lines.push(
    "",
    "## The size-limit budgets, measured the same way",
    "",
    "Each check of the packages' `.size-limit.json` on these dist files, bundled here with its own `import`, `ignore` list",
    "and compression. `pnpm size` reports within ~0.1 kB of these (it bundles to an IIFE and subtracts its empty-bundle",
    "overhead; measured side by side: permit2 root 13.6 vs 13.48 kB, solana 15.91 vs 15.93 kB, client 15.6 vs 15.64 kB).",
    "",
    "| entry | check | import | budget | measured here | headroom |",
    "|---|---|---|--:|--:|--:|",
  );
  for (const r of rows)
    for (const b of r.budgets)
      lines.push(
        `| \`${r.specifier}\` | ${b.name} | \`${b.import}\` | ${b.limit} ${b.compression} | ${kB(b.measured)} | ${(((b.limitBytes - b.measured) / b.limitBytes) * 100).toFixed(1)} % |`,
      );
  lines.push("", "## What each entry pulls in", "");
  for (const r of rows) {
    const top = (list) =>
      list
        .slice(0, 8)
        .map(([name, bytes]) => `\`${name}\` ${kB(bytes)}`)
        .join(", ") + (list.length > 8 ? `, and ${list.length - 8} more` : "");
    lines.push(`- \`${r.specifier}\``);
    lines.push(
      `  - peers excluded: ${top(r.without.packages)}; external imports: ${r.without.externalImports.map((p) => `\`${p}\``).join(", ") || "none"}`,
    );
    lines.push(`  - peers included: ${top(r.withPeers.packages)}`);
    lines.push(
      `  - Node globals referenced without an import: ${r.without.freeGlobals.join(", ") || "none"} (peers excluded); ${r.withPeers.freeGlobals.map((g) => `\`${g}\``).join(", ") || "none"} (peers included: the peers' own code, behind \`typeof\` guards or on paths the page does not take; the browser test runs every route without polyfills)`,
    );
    // Grouped by name, importers sorted: the same text whatever order esbuild resolved them in.
    const named = new Map();
    for (const b of [...r.without.builtins, ...r.withPeers.builtins]) {
      const entry = named.get(b.name) ?? { importers: new Set(), resolved: new Set() };
      entry.importers.add(packageOf(b.importer));
      entry.resolved.add(b.resolved ? `the npm package \`${b.resolved}\`` : "NOTHING");
      named.set(b.name, entry);
    }
    const describe = ([name, { importers, resolved }]) =>
      `\`${name}\` (by ${[...importers]
        .sort()
        .map((i) => `\`${i}\``)
        .join(", ")}; resolved to ${[...resolved].sort().join(", ")})`;
    lines.push(
      `  - Node built-in names asked for: ${
        named.size
          ? [...named.entries()]
              .sort((a, b) => a[0].localeCompare(b[0]))
              .map(describe)
              .join(", ")
          : "none"
      }`,
    );
  }
  lines.push(
    "",
    '`@swapintent/permit2/tron` imports tronweb dynamically, only for its private-key path: "peers included" counts it,',
    "but an app's bundler puts it in a lazy chunk (the browser page loads it only when the Tron route signs); the",
    "TronLink-style `signer` path needs no tronweb at all.",
    "",
    "`@swapintent/bitcoin/node` is not in the table: it is the Node-only entry (it imports `tiny-secp256k1`, which reads",
    "its `.wasm` from disk). Browsers use the root entry with `@bitcoinerlab/secp256k1` (pure JS).",
    "",
  );
  return lines.join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const report = await createBundleReport();
  console.log(report.markdown);
  if (report.violations.length > 0) {
    console.error(
      `\n${report.violations.length} violation(s):\n${report.violations.map((v) => `  - ${v}`).join("\n")}`,
    );
    process.exit(1);
  }
}
