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
  typesVersions?: Record<string, Record<string, string[]>>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/**
 * The environment of every command here: the test's own, without `NODE_PATH` and `NODE_OPTIONS`. `pnpm exec`/`pnpm
 * run` set `NODE_PATH` to the workspace's hoisted `node_modules/.pnpm/node_modules`, where `require` (not `import`)
 * would find viem, web3.js, ... that a consumer project does not have, hiding a missing dependency.
 */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { NODE_PATH: _path, NODE_OPTIONS: _options, ...env } = process.env;
  return { ...env, ...extra };
}

/** Runs a command (in {@link cleanEnv} unless `env` is given); on failure the error carries its stdout and stderr. */
export async function exec(
  file: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(file, args, {
      cwd: options.cwd,
      env: options.env ?? cleanEnv(),
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
  // the four at once: nothing else runs while vitest waits for this global setup
  return Promise.all(PUBLISHED.map((folder) => packOne(folder, outDir)));
}

/** `pnpm pack` of one package into `outDir`, with the tarball's file list and manifest. */
async function packOne(folder: (typeof PUBLISHED)[number], outDir: string): Promise<PackedPackage> {
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
  return { folder, name: manifest.name, tarball, files, manifest };
}

/** The consumer project: where it lives and what it installed. */
export interface ConsumerProject {
  dir: string;
  /** Whether this run installed it (false: reused an identical earlier install). */
  installed: boolean;
  installMs: number;
}

/**
 * The projects a wallet team could have, each installed from the same tarballs outside the workspace:
 * - `full`: npm, every peer (optional ones too) at the ranges the tarballs declare, plus `@types/node`,
 *   `@wagmi/core` for the README's wagmi recipe, `sats-connect` and `@leather.io/rpc` (wallet SDK types for the
 *   bitcoin adapters), a second viem (`viem-second`), and the oldest (5.4) and newest (7.x) TypeScript we claim beside
 *   the workspace's 5.9 (aliases `typescript-oldest`, `typescript-newest`);
 * - `minimal`: npm, only the peers that are not optional (bitcoinjs-lib) and one secp256k1 backend: no viem, no
 *   tronweb, no @solana/web3.js, no tiny-secp256k1, no ecpair;
 * - `pnpm`: pnpm with `node-linker=isolated` and `strict-peer-dependencies` (no hoisting: a package sees only what
 *   it declares), every peer.
 * - `lowest`: npm, every peer (optional ones too) at the lowest version its declared range admits, exactly.
 */
export type ProjectKind = "full" | "minimal" | "pnpm" | "lowest";

/** A second viem version beside the one the peer range installs (an exact older 2.x release). */
export const VIEM_SECOND = "2.57.0";

/** The TypeScript versions the consumer test compiles with besides the workspace's own (README: supported range). */
export const TYPESCRIPT_OLDEST = "5.4.5";
export const TYPESCRIPT_NEWEST = "7.0.2";

/**
 * The lowest version a peer range admits: of each `||` alternative `^x.y.z`, `~x.y.z`, `>=x.y.z` or `x.y.z`, the
 * smallest. Any other form of range throws (add it here before declaring it).
 */
export function lowestVersion(range: string): string {
  const versions = range.split("||").map((alternative) => {
    const m = /^\s*(?:\^|~|>=)?(\d+)\.(\d+)\.(\d+)\s*$/.exec(alternative);
    if (!m) throw new Error(`cannot read the lowest version of the range '${range}'`);
    return [Number(m[1]), Number(m[2]), Number(m[3])] as const;
  });
  versions.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  return (versions[0] as readonly number[]).join(".");
}

/** The package.json dependencies of one project kind (peers at the ranges the tarballs declare). */
function projectDependencies(packed: PackedPackage[], kind: ProjectKind): Record<string, string> {
  const dependencies: Record<string, string> = { "@types/node": "20.19.43" };
  if (kind === "full") {
    // @wagmi/core for the README's wagmi recipe (the version apps/e2e pins), as a wagmi app would have it.
    dependencies["@wagmi/core"] = "3.6.5";
    // the wallet SDKs whose types fixtures/wallet-sdks.ts hands to @swapintent/bitcoin/wallets' adapters
    dependencies["sats-connect"] = "4.2.1";
    dependencies["@leather.io/rpc"] = "2.21.16";
    // a second viem (another 2.x than the peer range installs) for fixtures/second-viem.ts
    dependencies["viem-second"] = `npm:viem@${VIEM_SECOND}`;
    dependencies["typescript-oldest"] = `npm:typescript@${TYPESCRIPT_OLDEST}`;
    dependencies["typescript-newest"] = `npm:typescript@${TYPESCRIPT_NEWEST}`;
  }
  const peers: Record<string, string> = {};
  for (const p of packed) {
    for (const [name, range] of Object.entries(p.manifest.peerDependencies ?? {})) {
      const optional = p.manifest.peerDependenciesMeta?.[name]?.optional === true;
      // minimal: the required peers, and @bitcoinerlab/secp256k1 as the one backend the bitcoin root needs
      if (kind !== "minimal" || !optional || name === "@bitcoinerlab/secp256k1") peers[name] = range;
    }
  }
  for (const [name, range] of Object.entries(peers).sort())
    dependencies[name] = kind === "lowest" ? lowestVersion(range) : range;
  for (const p of packed) dependencies[p.name] = `file:./tarballs/${p.tarball.split("/").pop()}`;
  return dependencies;
}

/**
 * A project outside the workspace (under the OS temp folder) with the tarballs and their peers from the registry,
 * installed as a wallet team would (`npm install`, or pnpm in its strictest layout; no workspace links), see
 * {@link ProjectKind}. The install is reused only when it is byte-for-byte the same input: the folder name is a hash
 * of every tarball and of the files written here, and a folder appears only by rename once its install succeeded.
 * In CI (`CI` set) only an install of this run (`runId`, from test/globalSetup.ts) is reused: test files that need the
 * same project share one install, the first to ask makes it while the others wait.
 */
export async function createConsumerProject(
  packed: PackedPackage[],
  kind: ProjectKind = "full",
  runId = "",
): Promise<ConsumerProject> {
  const dependencies = projectDependencies(packed, kind);
  const clientTarball = dependencies["@swapintent/client"];
  const manifest = `${JSON.stringify(
    {
      name: `swapintent-consumer-${kind}`,
      private: true,
      type: "module",
      dependencies,
      // pnpm resolves the signer tarballs' own `@swapintent/client` range from the registry (npm dedupes it to the
      // root's tarball); until the packages are published, point it at the tarball.
      ...(kind === "pnpm" ? { pnpm: { overrides: { "@swapintent/client": clientTarball } } } : {}),
    },
    null,
    2,
  )}\n`;
  const npmrc =
    kind === "pnpm"
      ? "node-linker=isolated\nstrict-peer-dependencies=true\nauto-install-peers=false\nresolve-peers-from-workspace-root=false\n"
      : "";

  const hash = createHash("sha256").update(manifest).update(npmrc);
  for (const p of packed) hash.update(await readFile(p.tarball));
  const key = `${kind}-${hash.digest("hex").slice(0, 16)}`;
  const base = join(tmpdir(), "swapintent-consumer");
  const dir = join(base, key);
  const marker = join(dir, "node_modules", ".swapintent-installed");
  await mkdir(base, { recursive: true });
  await removeStale(base, key);
  // Reused: any earlier identical install, or in CI only one made in this run (by another test file).
  const reusable = async () =>
    existsSync(marker) && (!process.env.CI || (await readFile(marker, "utf8")).trim() === runId);
  // One installer per folder at a time: the others wait for its marker.
  const lock = `${dir}.lock`;
  for (const started = Date.now(); ; ) {
    if (await reusable()) return { dir, installed: false, installMs: 0 };
    const lockInfo = await stat(lock).catch(() => null);
    if (lockInfo && Date.now() - lockInfo.mtimeMs > 15 * 60_000)
      await rm(lock, { recursive: true, force: true });
    if (
      await mkdir(lock).then(
        () => true,
        () => false,
      )
    )
      break;
    if (Date.now() - started > 15 * 60_000) throw new Error(`waited 15 minutes for ${lock} to go`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  const partial = `${dir}.partial-${process.pid}`;
  const started = performance.now();
  try {
    await rm(partial, { recursive: true, force: true });
    await mkdir(join(partial, "tarballs"), { recursive: true });
    for (const p of packed)
      await copyFile(p.tarball, join(partial, "tarballs", p.tarball.split("/").pop() ?? ""));
    await writeFile(join(partial, "package.json"), manifest);
    if (npmrc) await writeFile(join(partial, ".npmrc"), npmrc);
    // --ignore-scripts: like the workspace (pnpm 10 runs no dependency build scripts); none is needed here.
    const [file, args] =
      kind === "pnpm"
        ? ["pnpm", ["install", "--ignore-scripts", "--reporter=silent"]]
        : ["npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"]];
    await exec(file, args, {
      cwd: partial,
      env: {
        ...process.env,
        npm_config_update_notifier: "false",
        npm_config_manage_package_manager_versions: "false",
      },
      timeoutMs: 600_000,
    });
    await writeFile(join(partial, "node_modules", ".swapintent-installed"), `${runId}\n`);
    await rm(dir, { recursive: true, force: true });
    await rename(partial, dir);
  } finally {
    await rm(partial, { recursive: true, force: true });
    await rm(lock, { recursive: true, force: true });
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

/** What loading one specifier gave: its export names as ESM and as CJS, the files, or the error of each. */
export interface LoadedEntry {
  esm: string[];
  cjs: string[];
  esmFile: string;
  cjsFile: string;
  undefinedEsm: string[];
  esmError?: string;
  cjsError?: string;
}

/**
 * In a child `node` run in `dir`: `import()`s and `require()`s each specifier, as the project's own code would.
 * A failure is reported (its first line) instead of thrown, so a caller can assert which entries need which peer.
 */
export async function loadEntries(dir: string, specifiers: string[]): Promise<Record<string, LoadedEntry>> {
  const script = `
    import { createRequire } from "node:module";
    const require = createRequire(import.meta.url);
    const first = (e) => String(e?.message ?? e).split("\\n")[0];
    const out = {};
    for (const s of ${JSON.stringify(specifiers)}) {
      const r = { esm: [], cjs: [], esmFile: "", cjsFile: "", undefinedEsm: [] };
      try {
        const esm = await import(s);
        r.esm = Object.keys(esm).filter((k) => k !== "default").sort();
        r.undefinedEsm = Object.keys(esm).filter((k) => esm[k] === undefined);
        r.esmFile = import.meta.resolve(s);
      } catch (e) { r.esmError = first(e); }
      try {
        r.cjs = Object.keys(require(s)).sort();
        r.cjsFile = require.resolve(s);
      } catch (e) { r.cjsError = first(e); }
      out[s] = r;
    }
    console.log(JSON.stringify(out));`;
  const { stdout } = await exec("node", ["--input-type=module", "-e", script], { cwd: dir });
  return JSON.parse(stdout) as Record<string, LoadedEntry>;
}

/** `@swapintent/permit2/evm` for `./evm` of permit2: every specifier the packages export. */
export function exportedSpecifiers(packed: PackedPackage[]): string[] {
  return packed.flatMap((p) =>
    exportedSubpaths(p.manifest).map((sub) => (sub === "." ? p.name : `${p.name}/${sub.slice(2)}`)),
  );
}
