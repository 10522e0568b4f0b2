#!/usr/bin/env node
// Run in a published package's folder after `tsc -p tsconfig.build.json` (its `build` script) has written one
// declaration file and one declaration map per source file under `dist/` (`dist/evm/signPermit2Approval.d.ts` for
// `src/evm/signPermit2Approval.ts`, each map pointing at the source the tarball ships beside it).
//
// The package is `"type": "module"`, so those `.d.ts` files are ECMAScript-module declarations: right for the
// `import` condition, wrong for `require` (a CommonJS file that reaches them is told it imports an ES module). This
// writes the CommonJS twin of each: `x.d.cts` (+ `x.d.cts.map`), its relative specifiers `./y.js` turned into
// `./y.cjs` (which TypeScript resolves to `./y.d.cts`), and the map's `file` renamed. Only the specifier's
// extension changes, on the line it is on, so every mapping stays where it was.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const distDir = resolve(process.cwd(), "dist");
const RELATIVE_JS = /((?:\bfrom\s+|\bimport\s*\(\s*)(["']))(\.\.?\/[^"']*?)\.js\2/g;

/** Every `.d.ts` file under `dir`, as paths relative to `dir`. */
function declarationFiles(dir, prefix = "") {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return declarationFiles(dir, path);
    return entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

let count = 0;
for (const file of declarationFiles(distDir)) {
  const base = file.slice(0, -".d.ts".length);
  const name = base.split("/").pop();
  const text = readFileSync(join(distDir, file), "utf8")
    .replace(RELATIVE_JS, (_, head, quote, path) => `${head}${path}.cjs${quote}`)
    .replace(`//# sourceMappingURL=${name}.d.ts.map`, `//# sourceMappingURL=${name}.d.cts.map`);
  writeFileSync(join(distDir, `${base}.d.cts`), text);
  const map = JSON.parse(readFileSync(join(distDir, `${base}.d.ts.map`), "utf8"));
  writeFileSync(join(distDir, `${base}.d.cts.map`), JSON.stringify({ ...map, file: `${name}.d.cts` }));
  count++;
}
if (count === 0) {
  console.error(`no declaration files under ${distDir}: run tsc -p tsconfig.build.json first`);
  process.exit(1);
}
