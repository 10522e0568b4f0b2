#!/usr/bin/env node
// The `prepack` of every published package (run by `pnpm pack` and `pnpm publish` in the package's folder, and by
// publint, which packs with pnpm): refuses to pack what is not the package's current build, with a message that
// says what to run.
//   - every file the package's `exports`, `main`, `module` and `types` name (as published: `publishConfig` applied)
//     is there, and no declaration file of a source that no longer exists;
//   - no build output is older than a source file, `package.json`, a tsup or tsconfig file of the package, or the
//     workspace's shared build files it names (a build from before an edit, or a `dist` left from another branch);
//   - the CHANGELOG has a heading for the version being packed (`## 0.3.0`), so the tarball's notes describe it.
// `node scripts/check-pack.mjs [packageDir]` (default: the current folder) exits 1 with the reasons.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const packageDir = resolve(process.argv[2] ?? process.cwd());
const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
const published = { ...manifest, ...manifest.publishConfig };
const problems = [];

/** Every file under `dir` (relative to the package), recursively; none when it is missing. */
function filesUnder(dir) {
  const root = join(packageDir, dir);
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(packageDir, join(entry.parentPath ?? entry.path, entry.name)));
}

/** Every string target of an `exports` value. */
function targets(value) {
  if (typeof value === "string") return [value];
  if (value === null || typeof value !== "object") return [];
  return Object.values(value).flatMap(targets);
}

const named = [
  ...targets(published.exports ?? {}),
  ...["main", "module", "types"].flatMap((field) => (published[field] ? [published[field]] : [])),
].filter((target) => target.startsWith("./dist/"));
const missing = [...new Set(named)].filter((target) => !existsSync(join(packageDir, target)));
const dist = filesUnder("dist");
if (dist.length === 0) problems.push("there is no dist folder: the package was never built");
else if (missing.length > 0) problems.push(`dist lacks ${missing.join(", ")}`);

// Declarations of sources that no longer exist: what a build cache restored on top of an older dist leaves behind
// (turbo restores outputs without emptying the folder), and what would ship as stale types.
const sources = new Set(filesUnder("src").map((f) => f.replace(/^src\//, "").replace(/\.ts$/, "")));
const leftovers = dist.filter((f) => {
  const declaration = /^dist\/(.+)\.d\.c?ts(\.map)?$/.exec(f);
  return declaration !== null && !sources.has(declaration[1]);
});
if (leftovers.length > 0)
  problems.push(
    `dist holds declarations of sources that no longer exist (${leftovers.slice(0, 3).join(", ")}${
      leftovers.length > 3 ? ` and ${leftovers.length - 3} more` : ""
    }): remove dist and build again`,
  );

if (dist.length > 0 && missing.length === 0 && leftovers.length === 0) {
  const inputs = [
    ...filesUnder("src"),
    ...readdirSync(packageDir).filter(
      (f) => f === "package.json" || /^(tsup\.config|tsconfig.*)\.[cm]?[jt]s(on)?$/.test(f),
    ),
  ].filter((f) => !/\.(test|test-d|bench)\.ts$/.test(f));
  const sharedInputs = ["../../tsup.base.ts", "../../tsconfig.base.json"].filter((f) =>
    existsSync(join(packageDir, f)),
  );
  const mtime = (f) => statSync(join(packageDir, f)).mtimeMs;
  const oldestOutput = Math.min(...dist.map(mtime));
  const newer = [...inputs, ...sharedInputs].filter((f) => mtime(f) > oldestOutput);
  if (newer.length > 0)
    problems.push(
      `dist is older than ${newer.slice(0, 5).join(", ")}${newer.length > 5 ? ` and ${newer.length - 5} more` : ""}`,
    );
}

const changelog = join(packageDir, "CHANGELOG.md");
const heading = `## ${manifest.version}`;
if (!existsSync(changelog)) problems.push("there is no CHANGELOG.md");
else if (!readFileSync(changelog, "utf8").split("\n").includes(heading))
  problems.push(`CHANGELOG.md has no "${heading}" heading for the version being packed`);

if (problems.length > 0) {
  console.error(
    `${manifest.name}@${manifest.version} cannot be packed: ${problems.join("; ")}.\n` +
      "Build it first (`pnpm build` at the repository root), and version it with `pnpm changeset version`.",
  );
  process.exit(1);
}
