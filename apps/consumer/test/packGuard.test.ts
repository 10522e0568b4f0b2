import { cp, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportTargets, PUBLISHED, repoDir } from "./project.js";

/**
 * `pnpm pack` (and so `pnpm publish`) of a published package runs its `prepack`, `scripts/check-pack.mjs`. Checked
 * on a copy of each package laid out as in the repository (`<root>/packages/<name>`, `<root>/scripts`), with no
 * `node_modules` and a `dist` made here, so nothing depends on the workspace's own build.
 */
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "swapintent-pack-guard-"));
  await mkdir(join(root, "scripts"));
  await cp(join(repoDir, "scripts", "check-pack.mjs"), join(root, "scripts", "check-pack.mjs"));
  for (const file of ["tsup.base.ts", "tsconfig.base.json"]) await cp(join(repoDir, file), join(root, file));
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

/**
 * A copy of `packages/<folder>` without `dist` and `node_modules`; its `workspace:` ranges made plain ranges (no
 * workspace around it to resolve them from).
 */
async function copyPackage(folder: string): Promise<string> {
  const dir = join(root, "packages", folder);
  await rm(dir, { recursive: true, force: true });
  await cp(join(repoDir, "packages", folder), dir, {
    recursive: true,
    filter: (source) => !/\/(dist|node_modules|\.turbo)(\/|$)/.test(source.slice(repoDir.length)),
  });
  const manifest = await readFile(join(dir, "package.json"), "utf8");
  // The sibling packages share one version: a workspace range becomes the range a published manifest would carry.
  const version = (JSON.parse(manifest) as { version: string }).version;
  await writeFile(join(dir, "package.json"), manifest.replace(/"workspace:\^"/g, `"^${version}"`));
  return dir;
}

/** Writes every file the published manifest names under `dist` (what a build leaves, as far as packing sees). */
async function fakeBuild(dir: string): Promise<void> {
  const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
  const published = { ...manifest, ...manifest.publishConfig };
  const files = [
    ...exportTargets(published.exports).map((t) => t.target),
    ...["main", "module", "types"].map((field) => published[field] as string | undefined),
  ].filter((f): f is string => typeof f === "string" && f.startsWith("./dist/"));
  for (const file of files) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), "export {};\n");
  }
}

/** `pnpm pack` in `dir`: its exit and what it printed. */
async function pack(dir: string): Promise<{ ok: boolean; output: string }> {
  const { execFile } = await import("node:child_process");
  return new Promise((done) => {
    execFile(
      "pnpm",
      ["pack", "--pack-destination", join(root, "out")],
      { cwd: dir, env: { ...process.env, npm_config_manage_package_manager_versions: "false" } },
      (error, stdout, stderr) => done({ ok: !error, output: `${stdout}${stderr}` }),
    );
  });
}

describe("pnpm pack of a published package", () => {
  it("fails without a build, packs after one, fails again on a leftover declaration, a newer source or a new version (client)", async () => {
    const dir = await copyPackage("client");

    const unbuilt = await pack(dir);
    expect(unbuilt.ok).toBe(false);
    expect(unbuilt.output).toContain("@swapintent/client@");
    expect(unbuilt.output).toContain("there is no dist folder: the package was never built");
    expect(unbuilt.output).toContain("pnpm build");

    await fakeBuild(dir);
    const built = await pack(dir);
    expect(built.output).not.toContain("cannot be packed");
    expect(built.ok).toBe(true);

    // the declarations of a source that no longer exists (a cache restored on top of an older dist)
    await writeFile(join(dir, "dist", "removedSource.d.ts"), "export {};\n");
    const leftover = await pack(dir);
    expect(leftover.ok).toBe(false);
    expect(leftover.output).toContain(
      "dist holds declarations of sources that no longer exist (dist/removedSource.d.ts)",
    );
    await rm(join(dir, "dist", "removedSource.d.ts"));

    // a source edited after the build
    const later = new Date(Date.now() + 60_000);
    await utimes(join(dir, "src", "index.ts"), later, later);
    const stale = await pack(dir);
    expect(stale.ok).toBe(false);
    expect(stale.output).toContain("dist is older than src/index.ts");

    // a version with no CHANGELOG heading of its own (a build after it does not help)
    const earlier = new Date(Date.now() - 60_000);
    await utimes(join(dir, "src", "index.ts"), earlier, earlier);
    const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
    await writeFile(join(dir, "package.json"), JSON.stringify({ ...manifest, version: "9.9.9" }));
    await fakeBuild(dir);
    const unversioned = await pack(dir);
    expect(unversioned.ok).toBe(false);
    expect(unversioned.output).toContain('CHANGELOG.md has no "## 9.9.9" heading');
    expect(unversioned.output).not.toContain("dist is older");
  });

  it("fails without a build for every published package (each runs the same prepack)", async () => {
    const results = await Promise.all(
      PUBLISHED.map(async (folder) => {
        const dir = await copyPackage(folder);
        const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
        return { folder, prepack: manifest.scripts?.prepack, ...(await pack(dir)) };
      }),
    );
    for (const r of results) {
      expect(r.prepack, r.folder).toBe("node ../../scripts/check-pack.mjs");
      expect(r.ok, r.folder).toBe(false);
      expect(r.output, r.folder).toContain(`@swapintent/${r.folder}@`);
      expect(r.output, r.folder).toContain("there is no dist folder");
    }
  });
});
