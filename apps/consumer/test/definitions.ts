import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

/** Where an editor's go-to-definition on one imported function lands. */
export interface Definition {
  specifier: string;
  name: string;
  /** The file the definition is in, relative to the project's `node_modules`. */
  file: string;
  /** The source line at the definition (trimmed). */
  line: string;
}

/** A TypeScript language service over `files` in `dir`, with `options`: what an editor runs. */
function languageService(dir: string, files: string[], options: ts.CompilerOptions): ts.LanguageService {
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => files,
    getScriptVersion: () => "1",
    getScriptSnapshot: (file) =>
      ts.sys.fileExists(file) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(file) ?? "") : undefined,
    getCurrentDirectory: () => dir,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath,
  };
  return ts.createLanguageService(host, ts.createDocumentRegistry());
}

/**
 * For every function each of `specifiers` exports, asks TypeScript's language service (as an editor does) for its
 * definition from a file in `dir` that imports it, once from an ES module (`.mts`: the `.d.ts` files) and once from
 * a CommonJS one (`.cts`: the `.d.cts` files). The definition is mapped as tsserver maps it for an editor: through
 * the declaration map to the source when there is a map and the source is there; otherwise it stays in the
 * declaration file.
 */
export function findDefinitions(dir: string, specifiers: string[]): Record<"esm" | "cjs", Definition[]> {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    types: ["node"],
  };
  // what each specifier exports that is a function, read from its types
  const listing = join(dir, "definitions-list.mts");
  writeFileSync(listing, specifiers.map((s, i) => `import * as m${i} from "${s}";`).join("\n"));
  const program = ts.createProgram([listing], options);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(listing);
  const imports: { specifier: string; name: string }[] = [];
  source?.statements.forEach((statement, i) => {
    if (!ts.isImportDeclaration(statement)) return;
    const symbol = checker.getSymbolAtLocation(statement.moduleSpecifier);
    if (!symbol) throw new Error(`${specifiers[i]} does not resolve from ${dir}`);
    for (const exported of checker.getExportsOfModule(symbol)) {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      if (target.flags & ts.SymbolFlags.Function)
        imports.push({ specifier: specifiers[i] as string, name: exported.name });
    }
  });
  const result = { esm: [] as Definition[], cjs: [] as Definition[] };
  for (const kind of ["esm", "cjs"] as const) {
    const file = join(dir, `definitions-probe.${kind === "esm" ? "mts" : "cts"}`);
    const lines = imports.map(({ specifier, name }, i) => `import { ${name} as f${i} } from "${specifier}";`);
    writeFileSync(file, `${lines.join("\n")}\n`);
    const service = languageService(dir, [file], options);
    // tsserver maps each definition through this before an editor sees it (internal to the TypeScript API)
    const mapper = (
      service as ts.LanguageService & {
        getSourceMapper(): {
          tryGetSourcePosition(p: {
            fileName: string;
            pos: number;
          }): { fileName: string; pos: number } | undefined;
        };
      }
    ).getSourceMapper();
    let offset = 0;
    imports.forEach(({ specifier, name }, i) => {
      const at = offset + "import { ".length;
      offset += (lines[i] as string).length + 1;
      const [found] = service.getDefinitionAtPosition(file, at) ?? [];
      if (!found) throw new Error(`no definition of ${name} from ${specifier}`);
      const definition = mapper.tryGetSourcePosition({
        fileName: found.fileName,
        pos: found.textSpan.start,
      }) ?? { fileName: found.fileName, pos: found.textSpan.start };
      const text = readFileSync(definition.fileName, "utf8");
      const lineStart = text.lastIndexOf("\n", definition.pos) + 1;
      const lineEnd = text.indexOf("\n", definition.pos);
      result[kind].push({
        specifier,
        name,
        file: definition.fileName.slice(definition.fileName.lastIndexOf("/node_modules/") + 14),
        line: text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd).trim(),
      });
    });
  }
  return result;
}
