#!/usr/bin/env node
// Run after tsup in a published package's folder (its `build` script): makes the CommonJS declaration files
// (`dist/*.d.cts`) compile for a CommonJS TypeScript consumer under `module: node16` (and `nodenext` before
// TypeScript 5.8) with `skipLibCheck: false`.
//
// The class of problem: a `.d.cts` is a CommonJS module, so its `import ... from "viem"` is a `require` of viem's
// types. viem and bitcoinjs-lib ship their types as ECMAScript modules only, and TypeScript then reports TS1479
// ("the referenced file is an ECMAScript module and cannot be imported with 'require'") inside OUR file in the
// consumer's build. The fix TypeScript offers for declaration files: a type-only import with
// `with { "resolution-mode": "import" }` (TypeScript >= 5.3). This script asks TypeScript how each bare import of
// each `.d.cts` resolves from a CommonJS file, and rewrites exactly the ones that land on an ESM declaration file:
//   import { A, type B } from "viem";  ->  import type { A, B } from "viem" with { "resolution-mode": "import" };
//   import "viem";                      ->  (removed: an import for its side effects means nothing in a declaration file)
// Any other statement form that needs it fails the build with its file and line, so nothing slips through quietly.
// `node scripts/dcts-esm-imports.mjs --check` reports what it would change and exits 1 if anything is left.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

const packageDir = process.cwd();
const ts = createRequire(join(packageDir, "package.json"))("typescript");
const check = process.argv.includes("--check");
const distDir = resolve(packageDir, "dist");
const options = { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 };
const ATTRIBUTE = `with { "resolution-mode": "import" }`;

/** Whether `specifier`, required from `file`, resolves to declarations TypeScript treats as an ECMAScript module. */
function resolvesToEsm(specifier, file) {
  const { resolvedModule } = ts.resolveModuleName(
    specifier,
    file,
    options,
    ts.sys,
    undefined,
    undefined,
    ts.ModuleKind.CommonJS,
  );
  if (!resolvedModule) throw new Error(`${file}: cannot resolve '${specifier}' (is it a devDependency?)`);
  const format = ts.getImpliedNodeFormatForFile(resolvedModule.resolvedFileName, undefined, ts.sys, options);
  return format === ts.ModuleKind.ESNext;
}

/** Every `.d.cts` file under `dir` (tsc writes one per source file, in the source's folders), relative to `dir`. */
function commonJsDeclarations(dir, prefix = "") {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return commonJsDeclarations(dir, path);
    return entry.name.endsWith(".d.cts") ? [path] : [];
  });
}

const BARE = /^(?!\.|@swapintent\/)/;
let changed = 0;
const problems = [];
for (const name of commonJsDeclarations(distDir)) {
  const file = join(distDir, name);
  const lines = readFileSync(file, "utf8").split("\n");
  const out = [];
  lines.forEach((line, index) => {
    const where = `${name}:${index + 1}`;
    const named = /^import (?:type )?\{([^}]*)\} from (["'])([^"']+)\2;$/.exec(line);
    const bare = /^import (["'])([^"']+)\1;$/.exec(line);
    const other = /^(?:import|export)\b.*\bfrom (["'])([^"']+)\1;$/.exec(line);
    const inline = /\bimport\((["'])([^"']+)\1\)/.exec(line);
    const specifier = named?.[3] ?? bare?.[2] ?? other?.[2] ?? inline?.[2];
    if (
      !specifier ||
      !BARE.test(specifier) ||
      line.includes("resolution-mode") ||
      !resolvesToEsm(specifier, file)
    ) {
      out.push(line);
      return;
    }
    changed++;
    // `import type { type A }` is an error: the statement's `type` covers every name
    const names = named?.[1].replace(/\btype\s+/g, "");
    if (named) out.push(`import type {${names}} from "${specifier}" ${ATTRIBUTE};`);
    else if (bare) return;
    else
      problems.push(`${where}: no rewrite for this form of import of the ESM-typed '${specifier}': ${line}`);
  });
  if (!check) writeFileSync(file, out.join("\n"));
}
if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
if (check && changed > 0) {
  console.error(
    `${changed} import(s) of ESM-typed packages in dist/*.d.cts lack a resolution-mode attribute`,
  );
  process.exit(1);
}
