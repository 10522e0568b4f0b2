#!/usr/bin/env node
// Builds the documentation site: the VitePress pages, then the API reference from the TSDoc (typedoc, the
// repository's typedoc.json) into <out>/api. Static output, no network; works in any copy of the sources, with or
// without git (typedoc.json sets disableSources: the reference links no source file, so typedoc asks git nothing).
//   node scripts/buildSite.mjs [--out <dir>]      (default: apps/docs/dist)
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = join(appDir, "..", "..");

/** Builds the site into `outDir`: pages first, then the API reference under `outDir/api` (typedoc runs with `env`). */
export async function buildSite({
  outDir = join(appDir, "dist"),
  log = console.log,
  env = process.env,
} = {}) {
  const out = resolve(outDir);
  if (existsSync(out)) rmSync(out, { recursive: true, force: true });
  const { build } = await import("vitepress");
  await build(appDir, { outDir: out, logLevel: "warn" });
  log(`pages built into ${out}`);
  const require = createRequire(join(appDir, "package.json"));
  const typedocBin = join(dirname(require.resolve("typedoc/package.json")), "bin", "typedoc");
  const result = spawnSync(
    process.execPath,
    [typedocBin, "--options", "typedoc.json", "--out", join(out, "api")],
    {
      cwd: repoRoot,
      encoding: "utf8",
      env: { ...env, FORCE_COLOR: "0" },
    },
  );
  if (result.status !== 0) {
    throw new Error(`typedoc failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  log(`API reference built into ${join(out, "api")}`);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf("--out");
  const outDir = at === -1 ? undefined : process.argv[at + 1];
  buildSite({ outDir }).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
