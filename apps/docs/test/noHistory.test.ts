/**
 * The product speaks of the product: no file of the repository (code, comments, test names, READMEs, the site)
 * and no file name tells its own history: sessions, issue numbers, review rounds, attack passes, red teams or who
 * found what. That story belongs in commit messages, changesets (.changeset/) and CHANGELOG.md, which are exempt.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

/** The words of a change's history; each pattern names a way it was written before. */
export const historyPatterns: readonly RegExp[] = [
  /\bsessions? \d/i, // "session 8", "Session 6 (...)"
  /\bbefore session\b/i,
  /\bissues? #?\d/i, // "issue 14", "issue #12"
  /\b(?:first|second|third|fourth|fifth|independent|earlier|previous|last|this|next) reviews?\b/i,
  /\breview(?:'s)? (?:round|pass|findings?)\b/i,
  /\b(?:first|second|third|fourth|this|last|previous|next) round\b/i,
  /\bround \d/i,
  /\battack(?:er)? ?pass\b/i,
  /\bred[- ]?team/i,
  /\bfindings?\b/i, // "the review's findings", "one class of finding"
];

/** File names that tell a history rather than the behaviour tested. */
const historyNamePattern = /review\d*|redteam|red-team|findings|attackerpass|session\d/i;

/** Folders never scanned: dependencies, build output, caches, git, and the changesets (a change's own story). */
const skippedFolders = new Set([
  "node_modules",
  "dist",
  ".git",
  ".turbo",
  ".cache",
  ".changeset",
  "cache",
  "api",
]);
/** Files whose text is the history itself, and binary files. */
const skippedFile = (name: string) =>
  name === "CHANGELOG.md" || /\.(?:png|jpe?g|gif|ico|woff2?|wasm|br|gz|tgz|lockb)$/i.test(name);

/** Every file of the repository that is not skipped, relative to its root with `/` separators. */
function repositoryFiles(dir = repoRoot): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!skippedFolders.has(entry.name)) files.push(...repositoryFiles(join(dir, entry.name)));
    } else if (entry.isFile() && !skippedFile(entry.name)) {
      files.push(relative(repoRoot, join(dir, entry.name)).split(sep).join("/"));
    }
  }
  return files;
}

/** Each line of `text` that matches a history pattern, as `file:line: text`. */
function historyLines(file: string, text: string): string[] {
  const hits: string[] = [];
  text.split("\n").forEach((line, index) => {
    if (historyPatterns.some((pattern) => pattern.test(line)))
      hits.push(`${file}:${index + 1}: ${line.trim()}`);
  });
  return hits;
}

const thisFile = relative(repoRoot, fileURLToPath(import.meta.url))
  .split(sep)
  .join("/");

describe("no history in the product", () => {
  it("the patterns catch the ways history was written, and leave the product's own words alone", () => {
    const history = [
      "before session 8 the check was missing",
      "Session 6 (signal on every signer)",
      "a third review found it",
      "the independent review's findings",
      "fixed in issue 14",
      "this round adds a test",
      "Session 8's attack pass as the service",
      "red-team tests of the signing paths",
      "A hostile server, second round",
    ];
    const product = [
      "a session-level advisory lock on PostgreSQL",
      "the cookie `session=abc` is redacted",
      "the user reviews the summary before signing",
      "ResponseIssue: the first problem found",
      "rounds the fee up to the next satoshi",
    ];
    expect(history.filter((line) => historyLines("x", line).length === 0)).toEqual([]);
    expect(product.flatMap((line) => historyLines("x", line))).toEqual([]);
  });

  it("no file outside CHANGELOG.md and .changeset/ speaks of sessions, issues, reviews or rounds", () => {
    const files = repositoryFiles().filter((file) => file !== thisFile);
    expect(files.length).toBeGreaterThan(500);
    const hits = files.flatMap((file) => historyLines(file, readFileSync(join(repoRoot, file), "utf8")));
    expect(hits).toEqual([]);
  });

  it("no file is named for a review, a red team or a finding", () => {
    const named = repositoryFiles().filter((file) => historyNamePattern.test(file.split("/").pop()!));
    expect(named).toEqual([]);
  });
});
