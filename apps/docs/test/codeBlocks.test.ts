/**
 * Every TypeScript block of every README and of the site's pages compiles on its own: each block is written to a
 * file of its own (its imports are all it has) and typechecked with the repository's strict settings. A block
 * that uses a name it does not import or declare fails here, with the markdown file and line of the error.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const appDir = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = join(appDir, "..", "..");
const snippetDir = join(appDir, ".snippets");

/** The markdown files a reader copies code from: every README and every page of the site. */
function markdownFiles(): string[] {
  const files = ["README.md"];
  for (const group of ["packages", "apps"]) {
    for (const name of readdirSync(join(repoRoot, group))) files.push(`${group}/${name}/README.md`);
  }
  const pages = join(appDir, "pages");
  for (const entry of readdirSync(pages, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith(".md"))
      files.push(relative(repoRoot, join(entry.parentPath, entry.name)).split(sep).join("/"));
  }
  return files.filter((file) => {
    try {
      readFileSync(join(repoRoot, file));
      return true;
    } catch {
      return false;
    }
  });
}

/** One fenced TypeScript block: the markdown file, the line of its first line of code, and its text. */
interface CodeBlock {
  file: string;
  line: number;
  code: string;
}

function codeBlocks(file: string): CodeBlock[] {
  const lines = readFileSync(join(repoRoot, file), "utf8").split("\n");
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(?:ts|typescript)\s*$/.test(lines[i]!)) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end] !== "```") end++;
    blocks.push({ file, line: start + 1, code: lines.slice(start, end).join("\n") });
    i = end;
  }
  return blocks;
}

afterAll(() => rmSync(snippetDir, { recursive: true, force: true }));

describe("TypeScript blocks of the READMEs and the site", () => {
  it("each block compiles on its own, imports included", () => {
    const blocks = markdownFiles().flatMap(codeBlocks);
    expect(blocks.length).toBeGreaterThan(5);
    rmSync(snippetDir, { recursive: true, force: true });
    mkdirSync(snippetDir, { recursive: true });
    const origin = new Map<string, CodeBlock>();
    blocks.forEach((block, index) => {
      const name = `${block.file.replace(/[^a-zA-Z0-9]+/g, "-")}-${block.line}-${index}.ts`;
      // `export {}` makes every block a module of its own, so no two blocks share a name.
      writeFileSync(join(snippetDir, name), `${block.code}\nexport {};\n`);
      origin.set(name, block);
    });
    writeFileSync(
      join(snippetDir, "tsconfig.json"),
      JSON.stringify({
        extends: "../../../tsconfig.base.json",
        compilerOptions: { noUnusedLocals: false },
        include: ["*.ts"],
      }),
    );
    const require = createRequire(join(appDir, "package.json"));
    const tsc = join(dirname(require.resolve("typescript/package.json")), "bin", "tsc");
    const result = spawnSync(
      process.execPath,
      [tsc, "-p", join(snippetDir, "tsconfig.json"), "--pretty", "false"],
      {
        encoding: "utf8",
      },
    );
    // Each error where a reader sees it: the markdown file and line.
    const errors = result.stdout
      .split("\n")
      .filter((line) => line.includes("error TS"))
      .map((line) => {
        const match = /^(?:.*[\\/])?([^\\/(]+\.ts)\((\d+),\d+\): (.*)$/.exec(line);
        const block = match ? origin.get(match[1]!) : undefined;
        return block ? `${block.file}:${block.line + Number(match![2]) - 1}: ${match![3]}` : line;
      });
    expect(errors).toEqual([]);
    expect(result.status).toBe(0);
  });
});
