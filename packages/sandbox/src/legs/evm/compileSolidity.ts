import { createHash } from "node:crypto";
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Abi, Hex } from "viem";
import { findPackageRoot } from "./findPackageRoot.js";

/** ABI and creation bytecode of one compiled contract. */
export interface ContractArtifact {
  contractName: string;
  abi: Abi;
  bytecode: Hex;
}

/** A standard-JSON compile job: sources by key, settings, and the contracts to keep. */
export interface CompileJob {
  /** Short name used in the cache file name, e.g. `permit2`. */
  label: string;
  sources: Record<string, string>;
  settings: Record<string, unknown>;
  /** `sourceKey:ContractName` entries to return. */
  contracts: string[];
  /** Resolves imports missing from `sources` (solc-js import callback). */
  readImport?: (path: string) => string | undefined;
}

interface SolcCompiler {
  version(): string;
  compile(
    input: string,
    callbacks?: { import: (path: string) => { contents: string } | { error: string } },
  ): string;
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

const inFlight = new Map<string, Promise<Record<string, ContractArtifact>>>();

/** The folder where compiled artifacts are cached (outside git): `SWAPINTENT_CACHE_DIR` or the package's `node_modules/.cache/swapintent`. */
export function getArtifactCacheDir(): string {
  return process.env.SWAPINTENT_CACHE_DIR ?? join(findPackageRoot(), "node_modules", ".cache", "swapintent");
}

/**
 * Compile a job with solc-js 0.8.17, or read its artifacts from the cache when the inputs (every source
 * read, the settings and the compiler version) hash to a cached file. Concurrent callers share one compile.
 */
export async function compileSolidity(job: CompileJob): Promise<Record<string, ContractArtifact>> {
  const require = createRequire(import.meta.url);
  // The version from the manifest: loading the compiler itself (a large emscripten module) only on a cache miss.
  const { version } = require("solc/package.json") as { version: string };
  const key = hashInputs(job, version);
  const file = join(getArtifactCacheDir(), `${job.label}-${key}.json`);
  const running = inFlight.get(file);
  if (running) return running;
  const work = (async () => {
    const cached = readArtifacts(file);
    if (cached) return cached;
    mkdirSync(getArtifactCacheDir(), { recursive: true });
    // One compile per machine: other processes (parallel test workers) wait for the lock holder's file.
    const lock = `${file}.lock`;
    for (;;) {
      try {
        closeSync(openSync(lock, "wx"));
        break;
      } catch {
        const done = readArtifacts(file);
        if (done) return done;
        if (lockIsStale(lock)) rmSync(lock, { force: true });
        else await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    try {
      const again = readArtifacts(file);
      if (again) return again;
      const artifacts = runSolc(require("solc") as SolcCompiler, job);
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(artifacts));
      renameSync(tmp, file);
      return artifacts;
    } finally {
      rmSync(lock, { force: true });
    }
  })();
  inFlight.set(file, work);
  try {
    return await work;
  } finally {
    inFlight.delete(file);
  }
}

function readArtifacts(file: string): Record<string, ContractArtifact> | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, ContractArtifact>;
  } catch {
    return undefined;
  }
}

/** A compile lock older than two minutes belongs to a process that died mid-compile. */
function lockIsStale(lock: string): boolean {
  try {
    return Date.now() - statSync(lock).mtimeMs > 120_000;
  } catch {
    return false;
  }
}

function hashInputs(job: CompileJob, version: string): string {
  const hash = createHash("sha256");
  hash.update(version);
  hash.update(JSON.stringify(job.settings));
  hash.update(JSON.stringify(job.contracts));
  for (const [path, content] of Object.entries(job.sources).sort(([a], [b]) => a.localeCompare(b))) {
    hash.update(`\0${path}\0${content}`);
  }
  // Imports resolved through the callback are part of the inputs too: hash what they resolve to.
  if (job.readImport) {
    const seen = new Set(Object.keys(job.sources));
    const queue = Object.values(job.sources);
    while (queue.length > 0) {
      const source = queue.pop() as string;
      for (const match of source.matchAll(/import\s+(?:[^"';]*from\s+)?["']([^"']+)["']/g)) {
        const spec = match[1] as string;
        if (seen.has(spec)) continue;
        seen.add(spec);
        const content = job.readImport(spec);
        if (content !== undefined) {
          hash.update(`\0${spec}\0${content}`);
          queue.push(content);
        }
      }
    }
  }
  return hash.digest("hex").slice(0, 16);
}

function runSolc(solc: SolcCompiler, job: CompileJob): Record<string, ContractArtifact> {
  const input = {
    language: "Solidity",
    sources: Object.fromEntries(Object.entries(job.sources).map(([k, content]) => [k, { content }])),
    settings: { ...job.settings, outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
  };
  const output = JSON.parse(
    solc.compile(JSON.stringify(input), {
      import: (path) => {
        const content = job.readImport?.(path);
        return content === undefined ? { error: `not found: ${path}` } : { contents: content };
      },
    }),
  ) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) {
    throw new Error(`solc failed for ${job.label}:\n${errors.map((e) => e.formattedMessage).join("\n")}`);
  }
  const result: Record<string, ContractArtifact> = {};
  for (const entry of job.contracts) {
    const [source, name] = entry.split(":") as [string, string];
    const compiled = output.contracts?.[source]?.[name];
    if (!compiled) throw new Error(`solc output for ${job.label} lacks ${entry}`);
    result[name] = { contractName: name, abi: compiled.abi, bytecode: `0x${compiled.evm.bytecode.object}` };
  }
  return result;
}

/** Read a file as UTF-8, or undefined when it does not exist. */
export function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}
