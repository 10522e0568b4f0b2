import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, posix } from "node:path";
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
  /**
   * Reads an imported source unit by its resolved name (relative imports resolved against the importer,
   * then the settings' remappings applied, as solc does), or undefined when it does not exist.
   */
  readImport?: (path: string) => string | undefined;
  /**
   * Told what a cache miss costs while it runs: once when the compile starts (or waits for another process's),
   * every {@link PROGRESS_EVERY_MS} while it lasts, and once when it is done. Nothing on a cache hit.
   */
  onProgress?: (message: string) => void;
}

/** How often a compile in progress says it still runs, ms. */
export const PROGRESS_EVERY_MS = 10_000;

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
  const sources = collectSources(job);
  const key = hashInputs({ job, sources, version });
  const file = join(getArtifactCacheDir(), `${job.label}-${key}.json`);
  const running = inFlight.get(file);
  if (running) return running;
  const work = (async () => {
    const cached = readArtifacts(file);
    if (cached) return cached;
    mkdirSync(getArtifactCacheDir(), { recursive: true });
    // One compile per machine: other processes (parallel test workers) wait for the lock holder's file. The lock
    // holds the holder's pid, so a holder killed mid-compile (Ctrl-C, SIGKILL) does not make the next run wait.
    const lock = `${file}.lock`;
    let toldWaiting = false;
    for (;;) {
      try {
        writeFileSync(lock, String(process.pid), { flag: "wx" });
        break;
      } catch {
        const done = readArtifacts(file);
        if (done) return done;
        if (!toldWaiting)
          job.onProgress?.(`another process is compiling ${job.label}; waiting for its result`);
        toldWaiting = true;
        if (lockIsStale(lock)) rmSync(lock, { force: true });
        else await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    try {
      const again = readArtifacts(file);
      if (again) return again;
      const artifacts = await withProgress(job, version, () =>
        runSolc({ job, sources, solcPath: require.resolve("solc") }),
      );
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

/** Run a compile, telling `job.onProgress` when it starts, every {@link PROGRESS_EVERY_MS} while it runs, and when it ends. */
async function withProgress<T>(job: CompileJob, version: string, compile: () => Promise<T>): Promise<T> {
  const progress = job.onProgress;
  if (!progress) return compile();
  const startedMs = Date.now();
  const seconds = () => Math.round((Date.now() - startedMs) / 1000);
  progress(
    `compiling ${job.label} with solc ${version} (first start only: 20 to 70 s; cached in ${getArtifactCacheDir()})`,
  );
  const timer = setInterval(
    () => progress(`still compiling ${job.label} (${seconds()} s)`),
    PROGRESS_EVERY_MS,
  );
  try {
    const result = await compile();
    progress(`compiled ${job.label} in ${seconds()} s`);
    return result;
  } finally {
    clearInterval(timer);
  }
}

function readArtifacts(file: string): Record<string, ContractArtifact> | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, ContractArtifact>;
  } catch {
    return undefined;
  }
}

/**
 * A compile lock whose holder no longer runs, or older than two minutes (a holder on another machine or in another
 * pid namespace sharing the folder), belongs to a process that died mid-compile. Before, only the age counted: a
 * demo killed while compiling made the next one wait two silent minutes.
 */
function lockIsStale(lock: string): boolean {
  try {
    const pid = Number(readFileSync(lock, "utf8"));
    if (Number.isSafeInteger(pid) && pid > 0 && !isRunning(pid)) return true;
    return Date.now() - statSync(lock).mtimeMs > 120_000;
  } catch {
    return false;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // it runs, as another user
  }
}

/** solc children running now: killed when this process exits, so none compiles on as an orphan. */
const compilers = new Set<ChildProcess>();
let exitHookInstalled = false;

function killCompilersOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const child of compilers) child.kill("SIGKILL");
  });
}

/**
 * Every source unit the job compiles: its own sources plus the transitive imports, keyed by the unit names
 * solc gives them (so solc needs no import callback and the cache key covers every input file).
 */
function collectSources(job: CompileJob): Record<string, string> {
  const remappings = ((job.settings.remappings as string[] | undefined) ?? []).map(
    (r) => r.split("=") as [string, string],
  );
  const all: Record<string, string> = { ...job.sources };
  const queue = Object.keys(job.sources);
  while (queue.length > 0) {
    const unit = queue.pop() as string;
    for (const match of (all[unit] as string).matchAll(
      /^\s*import\s+(?:[^"';]*?from\s+)?["']([^"']+)["']/gm,
    )) {
      const spec = match[1] as string;
      let name =
        spec.startsWith("./") || spec.startsWith("../")
          ? posix.normalize(posix.join(posix.dirname(unit), spec))
          : spec;
      for (const [prefix, target] of remappings) {
        if (name.startsWith(prefix)) {
          name = target + name.slice(prefix.length);
          break;
        }
      }
      if (name in all) continue;
      const content = job.readImport?.(name);
      if (content === undefined)
        throw new Error(`compileSolidity(${job.label}): cannot resolve import ${spec} from ${unit}`);
      all[name] = content;
      queue.push(name);
    }
  }
  return all;
}

function hashInputs(request: { job: CompileJob; sources: Record<string, string>; version: string }): string {
  const hash = createHash("sha256");
  hash.update(request.version);
  hash.update(JSON.stringify(request.job.settings));
  hash.update(JSON.stringify(request.job.contracts));
  for (const [path, content] of Object.entries(request.sources).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  )) {
    hash.update(`\0${path}\0${content}`);
  }
  return hash.digest("hex").slice(0, 16);
}

/** solc-js runs in a child Node process: a 12-17 s via-IR compile must not block this process's event loop. */
const CHILD_SCRIPT = `
const solc = require(process.argv[1]);
const chunks = [];
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => process.stdout.write(solc.compile(Buffer.concat(chunks).toString("utf8"))));
`;

async function runSolc(request: {
  job: CompileJob;
  sources: Record<string, string>;
  solcPath: string;
}): Promise<Record<string, ContractArtifact>> {
  const { job } = request;
  const input = {
    language: "Solidity",
    sources: Object.fromEntries(Object.entries(request.sources).map(([k, content]) => [k, { content }])),
    settings: { ...job.settings, outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
  };
  const raw = await new Promise<string>((resolve, reject) => {
    killCompilersOnExit();
    const child = spawn(process.execPath, ["-e", CHILD_SCRIPT, request.solcPath], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    compilers.add(child);
    child.once("exit", () => compilers.delete(child));
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.once("error", reject);
    child.once("close", (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString("utf8"));
      else
        reject(new Error(`solc-js exited with ${code}: ${Buffer.concat(err).toString("utf8").slice(-2000)}`));
    });
    child.stdin.end(JSON.stringify(input));
  });
  const output = JSON.parse(raw) as SolcOutput;
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
