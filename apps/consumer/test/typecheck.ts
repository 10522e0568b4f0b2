import { copyFile, mkdir, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { basename, join } from "node:path";
import { exec } from "./project.js";

/**
 * The strictest settings a wallet project may use, every one on at once: our declaration files, and everything they
 * import, must compile under them. `skipLibCheck: false` makes tsc check every `.d.ts` it loads, ours included.
 */
export const STRICTEST_OPTIONS = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  skipLibCheck: false,
  noEmit: true,
  target: "es2022",
} as const;

/** One typecheck: which compiler, which module mode, which globals, which files. */
export interface TypecheckSetup {
  /** The `tsc` script to run with node. */
  tsc: string;
  /**
   * `node16`/`nodenext` (module and moduleResolution), `bundler` (module esnext), or `commonjs`: `module: commonjs`
   * alone, as a CommonJS project writes it, which on TypeScript 5.x means `moduleResolution: node10` (no `exports`).
   */
  mode: "node16" | "nodenext" | "bundler" | "commonjs";
  /** `lib`: viem's and ox's declarations need the DOM lib; a Node-only program has `es2022` alone. */
  lib: string[];
  /** Files to copy into the folder and check (`.cts` ones are CommonJS). */
  files: string[];
  /** `types`: `["node"]` (the default) loads `@types/node`; `[]` is a browser program that has no Node globals. */
  types?: string[];
  /** Skip checking `.d.ts` files: only for code whose declarations another run of the same setup checks. */
  skipLibCheck?: boolean;
}

/** One error tsc reported. */
export interface TscError {
  file: string;
  /** The line in `file` (1-based; 0 when tsc named no place). */
  line: number;
  code: string;
  text: string;
}

/**
 * Errors inside third-party declaration files that no code of ours can avoid (each seen with the versions the
 * tarballs' ranges install; the README's install section lists them). Any other error fails the test, and so does
 * one of these in a file of ours.
 */
export const THIRD_PARTY_ERRORS: { file: RegExp; codes: string[]; why: string }[] = [
  {
    file: /\/node_modules\/ecpair\/src\/cjs\/index\.d\.ts$/,
    codes: ["TS2835"],
    why: "ecpair 3.0.2's types use extension-less relative imports: any node16/nodenext ESM program that imports ecpair fails",
  },
  {
    file: /\/node_modules\/mipd\/dist\/types\/register\.d\.ts$/,
    codes: ["TS1479", "TS1542"],
    why: "mipd (under @wagmi/core) type-imports viem without resolution-mode: any module node16 program with @wagmi/core fails",
  },
  {
    file: /\/node_modules\/viem\/(node_modules\/ox\/)?_types\//,
    codes: ["TS1541", "TS1479"],
    why: "viem 2.52 (the lowest our range admits, lowestPeers.test.ts) and the ox it pins type-import ESM-typed packages without resolution-mode: a CommonJS file under module node16 that imports viem fails; later 2.x do not",
  },
  {
    file: /\/node_modules\/@solana\/web3\.js\/lib\/index\.d\.ts$/,
    codes: ["TS2307", "TS2591"],
    why: "@solana/web3.js 1.x's types import Node's `http` and `https`: a program without @types/node that imports web3.js fails",
  },
];

/** Parses `tsc --pretty false` output (`file(line,col): error TSxxxx: text`, paths relative to the folder). */
export function parseTscErrors(output: string, dir: string): TscError[] {
  return output
    .split("\n")
    .map((line) => /^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/.exec(line.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map(([, file = "", line = "0", code = "", text = ""]) => ({
      file: join(dir, file),
      line: Number(line),
      code,
      text,
    }));
}

/** The errors {@link THIRD_PARTY_ERRORS} does not explain. */
export function unexplainedErrors(errors: TscError[]): TscError[] {
  return errors.filter(
    (e) =>
      e.file.includes("/node_modules/@swapintent/") ||
      !THIRD_PARTY_ERRORS.some((known) => known.file.test(e.file) && known.codes.includes(e.code)),
  );
}

/**
 * How many compilers one test file runs at once: one per core. Each is a single-threaded process (TypeScript 7's
 * checker uses more) of up to 1 GB, so the tests that call {@link typecheck} at once queue here beyond that.
 */
const COMPILERS_AT_ONCE = Math.max(1, availableParallelism());
let compilersRunning = 0;
const compilersWaiting: (() => void)[] = [];

/** Runs `work` once fewer than {@link COMPILERS_AT_ONCE} compilers of this file run, first come first served. */
export async function withCompilerSlot<T>(work: () => Promise<T>): Promise<T> {
  if (compilersRunning >= COMPILERS_AT_ONCE)
    await new Promise<void>((resolve) => compilersWaiting.push(resolve));
  else compilersRunning++;
  try {
    return await work();
  } finally {
    // hand the slot straight to the next in line (the count stays), or free it
    const next = compilersWaiting.shift();
    if (next) next();
    else compilersRunning--;
  }
}

/**
 * Writes a tsconfig with {@link STRICTEST_OPTIONS} and the setup's module mode and lib into `dir` (inside the
 * consumer project, so packages resolve from its node_modules), copies the files, and runs tsc.
 */
export async function typecheck(
  dir: string,
  setup: TypecheckSetup,
): Promise<{ errors: TscError[]; ms: number }> {
  await mkdir(dir, { recursive: true });
  for (const file of setup.files) await copyFile(file, join(dir, basename(file)));
  const moduleOptions =
    setup.mode === "bundler"
      ? { module: "esnext", moduleResolution: "bundler" }
      : setup.mode === "commonjs"
        ? { module: "commonjs" }
        : { module: setup.mode, moduleResolution: setup.mode };
  const compilerOptions = {
    ...STRICTEST_OPTIONS,
    ...moduleOptions,
    lib: setup.lib,
    types: setup.types ?? ["node"],
    ...(setup.skipLibCheck ? { skipLibCheck: true } : {}),
  };
  await writeFile(
    join(dir, "tsconfig.json"),
    JSON.stringify({ compilerOptions, include: ["*.ts", "*.cts"] }, null, 2),
  );
  const { failure, started } = await withCompilerSlot(async () => {
    const started = performance.now();
    const failure = await exec("node", [setup.tsc, "-p", "tsconfig.json", "--pretty", "false"], {
      cwd: dir,
    }).then(
      () => undefined,
      (error: Error) => error.message,
    );
    return { failure, started };
  });
  const errors = failure === undefined ? [] : parseTscErrors(failure, dir);
  // a failure without a file-located error (an unknown option, a missing lib, a crash) is an error too
  if (failure !== undefined && errors.length === 0)
    errors.push({ file: dir, line: 0, code: "tsc", text: failure });
  return { errors, ms: performance.now() - started };
}
