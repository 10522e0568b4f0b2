import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportTargets, PUBLISHED, repoDir } from "./project.js";

/** The libraries a wallet imports beside ours: no public name of ours may be one of theirs. */
const LIBRARIES = [
  "viem",
  "viem/accounts",
  "@solana/kit",
  "@solana/web3.js",
  "@solana/spl-token",
  "@solana-program/token",
  "@solana-program/system",
];

/** One public name of one module: a value, a type or both. */
interface ExportedName {
  module: string;
  name: string;
  deprecated: boolean;
}

/** Each public entry of our packages (`@swapintent/permit2/evm`) and the source file it is built from. */
function ourEntries(): { specifier: string; file: string }[] {
  return PUBLISHED.flatMap((folder) => {
    const dir = join(repoDir, "packages", folder);
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    return Object.entries(manifest.exports as Record<string, unknown>)
      .filter(([subpath]) => subpath !== "./package.json")
      .map(([subpath, conditions]) => {
        const source = exportTargets(conditions).find((t) => t.conditions[0] === "swapintent-source");
        if (!source) throw new Error(`${manifest.name} ${subpath} has no swapintent-source target`);
        return {
          specifier: subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
          file: join(dir, source.target),
        };
      });
  });
}

/** Whether `symbol` (or what it aliases) carries `@deprecated` in its doc comment. */
function isDeprecated(checker: ts.TypeChecker, symbol: ts.Symbol): boolean {
  const symbols = [symbol];
  if (symbol.flags & ts.SymbolFlags.Alias) symbols.push(checker.getAliasedSymbol(symbol));
  return symbols.some(
    (s) =>
      s.getJsDocTags(checker).some((tag) => tag.name === "deprecated") ||
      (s.declarations ?? []).some((d) => ts.getJSDocDeprecatedTag(d) !== undefined),
  );
}

/**
 * Every exported name (values and types) of every module in `modules`, read with the TypeScript compiler from a file
 * in `dir` that imports each one (`export * as`), so each library resolves as a wallet's project would resolve it.
 */
function exportedNames(dir: string, modules: { specifier: string; file?: string }[]): ExportedName[] {
  const probe = join(dir, "export-names.ts");
  writeFileSync(
    probe,
    modules.map((m, i) => `export * as m${i} from ${JSON.stringify(m.file ?? m.specifier)};`).join("\n"),
  );
  const program = ts.createProgram([probe], {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    allowImportingTsExtensions: true,
    noEmit: true,
    skipLibCheck: true,
    types: ["node"],
    customConditions: ["swapintent-source"],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(probe);
  const names: ExportedName[] = [];
  source?.statements.forEach((statement, i) => {
    const module = modules[i] as { specifier: string };
    if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier)
      throw new Error(`unexpected statement for ${module.specifier}`);
    const symbol = checker.getSymbolAtLocation(statement.moduleSpecifier);
    if (!symbol) throw new Error(`${module.specifier} does not resolve from ${dir}`);
    for (const exported of checker.getExportsOfModule(symbol))
      if (exported.name !== "default")
        names.push({
          module: module.specifier,
          name: exported.name,
          deprecated: isDeprecated(checker, exported),
        });
  });
  return names;
}

let dir: string;
let ours: ExportedName[] = [];
let theirs: ExportedName[] = [];
beforeAll(async () => {
  // a folder inside this app, so the libraries resolve from its node_modules (its devDependencies)
  dir = await mkdtemp(join(repoDir, "apps", "consumer", ".export-names-"));
  const entries = ourEntries();
  const all = exportedNames(dir, [...entries, ...LIBRARIES.map((specifier) => ({ specifier }))]);
  const ourSpecifiers = new Set(entries.map((e) => e.specifier));
  ours = all.filter((n) => ourSpecifiers.has(n.module));
  theirs = all.filter((n) => !ourSpecifiers.has(n.module));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("public names beside the libraries a wallet already imports", () => {
  it("reads every public entry of ours and every library's exports, values and types", () => {
    const modules = (names: ExportedName[]) => new Set(names.map((n) => n.module));
    expect(modules(ours)).toEqual(new Set(ourEntries().map((e) => e.specifier)));
    expect(modules(theirs)).toEqual(new Set(LIBRARIES));
    // each library's names, read through its types: hundreds each, types included (viem's `Address`)
    for (const library of LIBRARIES)
      expect(theirs.filter((n) => n.module === library).length, library).toBeGreaterThan(20);
    expect(theirs).toContainEqual(expect.objectContaining({ module: "viem", name: "Address" }));
    expect(ours).toContainEqual(expect.objectContaining({ module: "@swapintent/client", name: "Quote" }));
  });

  it("no export of ours, except a @deprecated alias kept for one minor release, has the name of one of theirs", () => {
    const byName = new Map<string, string[]>();
    for (const n of theirs) byName.set(n.name, [...(byName.get(n.name) ?? []), n.module]);
    const collisions = ours
      .filter((n) => !n.deprecated && byName.has(n.name))
      .map((n) => `${n.module} ${n.name} (also in ${[...new Set(byName.get(n.name))].join(", ")})`);
    expect([...new Set(collisions)].sort()).toEqual([]);
  });
});
