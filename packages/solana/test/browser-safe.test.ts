import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

const SRC = join(import.meta.dirname, "..", "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.(test|bench)\.ts$/.test(entry.name) ? [path] : [];
  });
}

it("the package's own code uses no Node Buffer, no node: modules and no process (browser-safe)", () => {
  const files = sourceFiles(SRC);
  expect(files.length).toBeGreaterThan(5);
  const code = (file: string) =>
    readFileSync(file, "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/\/\/.*$/gm, "");
  const offenders = files.filter((file) => /\bBuffer\b|from "node:|\bprocess\./.test(code(file)));
  expect(offenders).toEqual([]);
});
