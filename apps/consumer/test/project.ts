import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { buildSignerPackages } from "../../browser/test/buildSignerPackages.js";

const run = promisify(execFile);

/** The repository root. */
export const repoDir = join(dirname(fileURLToPath(import.meta.url)), "../../..");

/** The publishable packages, by folder under `packages/`. */
export const PUBLISHED = ["client", "permit2", "bitcoin", "solana"] as const;

/** What `pnpm pack` produced for one package: the tarball, its file list and the manifest inside it. */
export interface PackedPackage {
  folder: (typeof PUBLISHED)[number];
  name: string;
  tarball: string;
  files: string[];
  manifest: PackedManifest;
}

/** The fields of a packed package.json that the test reads. */
export interface PackedManifest {
  name: string;
  version: string;
  license?: string;
  repository?: { type?: string; url?: string; directory?: string };
  homepage?: string;
  bugs?: { url?: string };
  engines?: { node?: string };
  exports: Record<string, unknown>;
  main?: string;
  module?: string;
  types?: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** Runs a command; on failure the error carries its stdout and stderr. */
export async function exec(
  file: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(file, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      maxBuffer: 64 * 1024 * 1024,
      timeout: options.timeoutMs ?? 300_000,
    });
  } catch (error) {
    const e = error as Error & { stdout?: string; stderr?: string };
    throw new Error(
      `${file} ${args.join(" ")} failed in ${options.cwd}: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`,
    );
  }
}

/**
 * Builds the publishable packages' `dist` with turbo (from its cache when nothing changed), then `pnpm pack`s each
 * into `outDir`: pnpm applies `publishConfig` (the published `exports`) and turns `workspace:` ranges into versions,
 * exactly as `pnpm publish` would.
 */
export async function packPublished(outDir: string): Promise<PackedPackage[]> {
  buildSignerPackages(); // turbo, answered from its cache when nothing changed
  await mkdir(outDir, { recursive: true });
  const packed: PackedPackage[] = [];
  for (const folder of PUBLISHED) {
    const { stdout } = await exec("pnpm", ["pack", "--pack-destination", outDir], {
      cwd: join(repoDir, "packages", folder),
    });
    const tarball = stdout.trim().split("\n").pop() ?? "";
    if (!tarball.endsWith(".tgz") || !existsSync(tarball))
      throw new Error(`pnpm pack printed no tarball: ${stdout}`);
    const files = (await exec("tar", ["tzf", tarball], { cwd: outDir })).stdout.trim().split("\n");
    const manifest = JSON.parse(
      (await exec("tar", ["xzf", tarball, "-O", "package/package.json"], { cwd: outDir })).stdout,
    ) as PackedManifest;
    packed.push({ folder, name: manifest.name, tarball, files, manifest });
  }
  return packed;
}

/** The consumer project: where it lives and what it installed. */
export interface ConsumerProject {
  dir: string;
  /** Whether this run installed it (false: reused an identical earlier install). */
  installed: boolean;
  installMs: number;
}

/**
 * A project outside the workspace (under the OS temp folder) with the tarballs and their peers from the registry
 * installed by npm, as a wallet team would (`npm install`, no pnpm, no workspace links).
 *
 * Peers are installed at the ranges the tarballs declare (every optional one too), plus `@types/node` for the
 * typecheck and `@wagmi/core` for the README's wagmi recipe. The install is reused only when it is byte-for-byte the same input: the folder name is a hash of every
 * tarball and of the package.json written here, and a folder appears only by rename once its install succeeded.
 * In CI (`CI` set) it is always installed fresh.
 */
export async function createConsumerProject(packed: PackedPackage[]): Promise<ConsumerProject> {
  const peers: Record<string, string> = {};
  for (const p of packed) Object.assign(peers, p.manifest.peerDependencies ?? {});
  // @types/node for the typecheck; @wagmi/core for the README's wagmi recipe (the version apps/e2e pins), as a
  // wagmi app would have it.
  const dependencies: Record<string, string> = { "@types/node": "20.19.43", "@wagmi/core": "3.6.5" };
  for (const [name, range] of Object.entries(peers).sort()) dependencies[name] = range;
  for (const p of packed) dependencies[p.name] = `file:./tarballs/${p.tarball.split("/").pop()}`;
  const manifest = `${JSON.stringify({ name: "swapintent-consumer", private: true, type: "module", dependencies }, null, 2)}\n`;

  const hash = createHash("sha256").update(manifest);
  for (const p of packed) hash.update(await readFile(p.tarball));
  const key = hash.digest("hex").slice(0, 16);
  const base = join(tmpdir(), "swapintent-consumer");
  const dir = join(base, key);
  await mkdir(base, { recursive: true });
  await removeStale(base, key);
  if (!process.env.CI && existsSync(join(dir, "node_modules", ".swapintent-installed"))) {
    return { dir, installed: false, installMs: 0 };
  }
  const partial = `${dir}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(join(partial, "tarballs"), { recursive: true });
  for (const p of packed)
    await copyFile(p.tarball, join(partial, "tarballs", p.tarball.split("/").pop() ?? ""));
  await writeFile(join(partial, "package.json"), manifest);
  const started = performance.now();
  try {
    // --ignore-scripts: like the workspace (pnpm 10 runs no dependency build scripts); none is needed here.
    await exec("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], {
      cwd: partial,
      env: { ...process.env, npm_config_update_notifier: "false" },
      timeoutMs: 600_000,
    });
    await writeFile(join(partial, "node_modules", ".swapintent-installed"), `${new Date().toISOString()}\n`);
    await rm(dir, { recursive: true, force: true });
    await rename(partial, dir);
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
  return { dir, installed: true, installMs: performance.now() - started };
}

/** Removes earlier installs (other keys) older than a day, so the temp folder does not grow run after run. */
async function removeStale(base: string, keep: string): Promise<void> {
  const dayAgo = Date.now() - 24 * 3600_000;
  for (const entry of await readdir(base)) {
    if (entry === keep) continue;
    const path = join(base, entry);
    const info = await stat(path).catch(() => null);
    if (info && info.mtimeMs < dayAgo) await rm(path, { recursive: true, force: true });
  }
}

/** Every subpath a package exports, except `./package.json` (`"."`, `"./evm"`, ...). */
export function exportedSubpaths(manifest: PackedManifest): string[] {
  return Object.keys(manifest.exports).filter((k) => k !== "./package.json");
}

/** Every string target of an `exports` map, with the conditions that lead to it. */
export function exportTargets(
  value: unknown,
  conditions: string[] = [],
): { conditions: string[]; target: string }[] {
  if (typeof value === "string") return [{ conditions, target: value }];
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, inner]) => exportTargets(inner, [...conditions, key]));
}
