#!/usr/bin/env node
// Embeds the example files into README.md: every `<!-- embed: path -->` line is followed by a fenced
// block holding that file's text. `node scripts/sync-readme.mjs` rewrites the blocks; `--check` exits 1
// when the README differs from the files (apps/e2e/test/readme.test.ts runs the same check).
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Returns README text with every embed block refreshed from its file (line-based: marker, fence, body, fence). */
export function embedExamples(readme, readFile = (path) => readFileSync(join(root, path), "utf8")) {
  const lines = readme.split("\n");
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    out.push(line);
    const marker = /^<!-- embed: (\S+) -->$/.exec(line);
    if (!marker) continue;
    const open = /^```(\w*)$/.exec(lines[i + 1] ?? "");
    if (!open) throw new Error(`README line ${i + 2}: a fenced block must follow ${line}`);
    let close = i + 2;
    while (close < lines.length && lines[close] !== "```") close++;
    if (close >= lines.length) throw new Error(`README line ${i + 2}: unclosed fenced block`);
    out.push(`\`\`\`${open[1] || "ts"}`, ...readFile(marker[1]).trimEnd().split("\n"), "```");
    i = close;
  }
  return out.join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = join(root, "README.md");
  const current = readFileSync(file, "utf8");
  const next = embedExamples(current);
  if (process.argv.includes("--check")) {
    if (next !== current) {
      console.error("README.md is out of date with its embedded examples: run node scripts/sync-readme.mjs");
      process.exit(1);
    }
  } else if (next !== current) {
    writeFileSync(file, next);
    console.log("README.md updated");
  }
}
