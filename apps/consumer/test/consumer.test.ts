import { existsSync, realpathSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { builtinModules, createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { compileFunction } from "node:vm";
import { type Sandbox, startSandbox } from "@swapintent/sandbox";
import { build, type Plugin } from "esbuild";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findDefinitions } from "./definitions.js";
import {
  type ConsumerProject,
  cleanEnv,
  createConsumerProject,
  exec,
  exportedSpecifiers,
  exportedSubpaths,
  exportTargets,
  type LoadedEntry,
  loadEntries,
  type PackedPackage,
  packPublished,
  repoDir,
  TYPESCRIPT_NEWEST,
  TYPESCRIPT_OLDEST,
} from "./project.js";
import { collectRefusals } from "./refusals.js";
import { docExamples, readmeSnippets } from "./snippets.js";
import { type TscError, type TypecheckSetup, typecheck, unexplainedErrors } from "./typecheck.js";

const require = createRequire(import.meta.url);
const appDir = join(repoDir, "apps", "consumer");

/**
 * Exact pins a package may still carry, each with its owner. Every other dependency of a published package must be
 * a range, so that a wallet's own copy of the same library can satisfy it (no second copy installed).
 */
const EXACT_PIN_EXCEPTIONS: Record<string, string[]> = {};

/**
 * esbuild plugin: every bare import stays external (resolved at run time from the consumer project's node_modules),
 * except the workspace's private demo support (`@swapintent/testing`), which is never published and so is bundled.
 */
const externalExceptDemoSupport: Plugin = {
  name: "external-except-demo-support",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@swapintent/testing/") ? undefined : { path: args.path, external: true },
    );
  },
};

let packDir: string;
let packed: PackedPackage[] = [];
let project: ConsumerProject;
let minimal: ConsumerProject;
let pnpmProject: ConsumerProject;
let runDir: string;
const timings: Record<string, number> = {};

/** A setup failure fails every test with its message: nothing here is ever skipped. */
let setupError: unknown;
function setUp(): void {
  if (setupError) throw setupError;
}

beforeAll(async () => {
  const started = performance.now();
  try {
    packDir = await mkdtemp(join(tmpdir(), "swapintent-pack-"));
    packed = await packPublished(packDir);
    timings.buildAndPackMs = performance.now() - started;
    // the three installs at once: mostly waiting on the registry
    [project, minimal, pnpmProject] = await Promise.all([
      createConsumerProject(packed, "full"),
      createConsumerProject(packed, "minimal"),
      createConsumerProject(packed, "pnpm"),
    ]);
    timings.installMs = performance.now() - started - timings.buildAndPackMs;
    runDir = await mkdtemp(join(project.dir, "run-"));
  } catch (error) {
    setupError = error;
  }
});

afterAll(async () => {
  if (runDir) await rm(runDir, { recursive: true, force: true });
  if (packDir) await rm(packDir, { recursive: true, force: true });
  const typechecks = Object.entries(timings)
    .filter(([k]) => k.startsWith("tsc "))
    .map(([k, v]) => `${k.slice(4)} ${ms(v)}`)
    .join(", ");
  console.log(
    `consumer test: build+pack ${ms(timings.buildAndPackMs)}, installs (npm full, npm minimal, pnpm isolated) ${
      project?.installed ? ms(timings.installMs) : "reused"
    }, typechecks: ${typechecks}, checks of the tarballs ${ms(timings.tarballChecksMs)}, browser bundles ${ms(
      timings.bundlesMs,
    )}, routes ${ms(timings.routesMs)}`,
  );
});

/** Where Node's resolution finds `name` from the package in `fromDir` (the nearest node_modules going up). */
function findPackage(fromDir: string, name: string): string {
  for (let dir = fromDir; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
  }
  throw new Error(`${name} is not installed where ${fromDir} can find it`);
}

/** Every specifier loaded as ESM and as CJS, with the same export names, from the dist files. */
function expectEveryEntryLoads(loaded: Record<string, LoadedEntry>, specifiers: string[]): void {
  expect(Object.keys(loaded).sort()).toEqual([...specifiers].sort());
  for (const [specifier, r] of Object.entries(loaded)) {
    expect([r.esmError, r.cjsError], specifier).toEqual([undefined, undefined]);
    expect(r.esm.length, specifier).toBeGreaterThan(0);
    expect(r.cjs, specifier).toEqual(r.esm);
    expect(r.undefinedEsm, specifier).toEqual([]);
    expect(r.esmFile, specifier).toMatch(/\/dist\/[a-z]+\.js$/);
    expect(r.cjsFile, specifier).toMatch(/\/dist\/[a-z]+\.cjs$/);
  }
}

function ms(value: number | undefined): string {
  return value === undefined ? "-" : `${(value / 1000).toFixed(1)} s`;
}

describe("the published tarballs (pnpm pack)", () => {
  it("hold dist, the sources its maps point at, LICENSE and README, and no tests", () => {
    setUp();
    expect(packed.map((p) => p.folder)).toEqual(["client", "permit2", "bitcoin", "solana"]);
    for (const p of packed) {
      const files = p.files.map((f) => f.replace(/^package\//, ""));
      expect(files, p.name).toEqual(expect.arrayContaining(["LICENSE", "README.md", "package.json"]));
      const unexpected = files.filter(
        (f) =>
          !["LICENSE", "README.md", "CHANGELOG.md", "package.json"].includes(f) &&
          !/^dist\/[^/]+\.(js|cjs|js\.map|cjs\.map)$/.test(f) &&
          !/^dist\/([\w-]+\/)*[\w-]+\.(d\.ts|d\.cts|d\.ts\.map|d\.cts\.map)$/.test(f) &&
          !/^src\/([\w-]+\/)*[\w-]+(?<!\.test|\.test-d|\.bench)\.ts$/.test(f),
      );
      expect(unexpected, `${p.name} ships files outside dist and src, or a test`).toEqual([]);
      // one declaration file, one CommonJS twin and a map of each, per source file
      const sources = files.filter((f) => f.startsWith("src/")).map((f) => f.slice(4, -3));
      const declarations = files.filter((f) => /^dist\/.*\.d\.ts$/.test(f)).map((f) => f.slice(5, -5));
      expect(declarations.sort(), p.name).toEqual(sources.sort());
      for (const base of sources)
        for (const ext of [".d.ts.map", ".d.cts", ".d.cts.map"])
          expect(files, p.name).toContain(`dist/${base}${ext}`);
    }
  });

  it("publish exports without the workspace's swapintent-source condition, each target a file in the tarball", () => {
    setUp();
    for (const p of packed) {
      const files = new Set(p.files.map((f) => f.replace(/^package\//, "./")));
      const targets = [
        ...exportTargets(p.manifest.exports),
        ...(["main", "module", "types"] as const).flatMap((field) =>
          p.manifest[field] ? [{ conditions: [field], target: p.manifest[field] as string }] : [],
        ),
      ];
      expect(targets.length, p.name).toBeGreaterThan(3);
      for (const { conditions, target } of targets) {
        const where = `${p.name} ${conditions.join(" > ")}`;
        expect(conditions, where).not.toContain("swapintent-source");
        expect(target, where).not.toMatch(/(^|\/)src\/|(?<!\.d)\.ts$/);
        expect(files.has(target), `${where}: ${target} is not in the tarball`).toBe(true);
      }
      expect(JSON.stringify(p.manifest), p.name).not.toContain("swapintent-source");
    }
  });

  it("map every subpath entry in typesVersions to its CommonJS types (moduleResolution node10 reads no exports)", () => {
    setUp();
    for (const p of packed) {
      const files = new Set(p.files.map((f) => f.replace(/^package\//, "./")));
      const subpaths = exportedSubpaths(p.manifest).filter((s) => s !== ".");
      // node10 finds the root entry through `types`; a subpath only through `typesVersions`
      expect(p.manifest.types, p.name).toBe(
        exportTargets(p.manifest.exports["."]).find((t) => t.conditions.join() === "require,types")?.target,
      );
      const expected = Object.fromEntries(
        subpaths.map((sub) => [
          sub.slice(2),
          exportTargets(p.manifest.exports[sub])
            .filter((t) => t.conditions.join() === "require,types")
            .map((t) => t.target),
        ]),
      );
      expect(p.manifest.typesVersions ?? {}, p.name).toEqual(subpaths.length === 0 ? {} : { "*": expected });
      for (const [sub, [target = ""]] of Object.entries(expected)) {
        expect(target, `${p.name}/${sub}`).toMatch(/\.d\.cts$/);
        expect(files.has(target), `${p.name}/${sub}: ${target}`).toBe(true);
      }
    }
  });

  it("name every exported entry in the fixtures that typecheck all entries (ESM and CommonJS)", async () => {
    setUp();
    const specifiers = exportedSpecifiers(packed);
    for (const file of ["entries.ts", "require.cts"]) {
      const text = await readFile(join(appDir, "fixtures", file), "utf8");
      const named = [...text.matchAll(/(?:from |require\()"(@swapintent\/[a-z0-9/]+)"/g)].map((m) => m[1]);
      expect(new Set(named), file).toEqual(new Set(specifiers));
    }
  });

  it("carry license, repository, homepage, bugs and engines, and an MIT LICENSE file", async () => {
    setUp();
    for (const p of packed) {
      const m = p.manifest;
      expect(m.license, p.name).toBe("MIT");
      expect(m.repository, p.name).toEqual({
        type: "git",
        url: "git+https://github.com/swapintent/swapintent.git",
        directory: `packages/${p.folder}`,
      });
      expect(m.homepage, p.name).toMatch(/^https:\/\/github\.com\/swapintent\/swapintent/);
      expect(m.bugs?.url, p.name).toBe("https://github.com/swapintent/swapintent/issues");
      expect(m.engines?.node, p.name).toBe(">=20.19");
      const license = (await exec("tar", ["xzf", p.tarball, "-O", "package/LICENSE"], { cwd: packDir }))
        .stdout;
      expect(license, p.name).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} swapintent contributors\n/);
    }
  });

  it("depend by ranges (no workspace: protocol, no exact pin a wallet's own copy could not satisfy)", () => {
    setUp();
    for (const p of packed) {
      const ranges = { ...p.manifest.dependencies, ...p.manifest.peerDependencies };
      // the client has no dependency at all (its schemas are its own); every other package has some
      if (p.name === "@swapintent/client") expect(ranges, p.name).toEqual({});
      else expect(Object.keys(ranges).length, p.name).toBeGreaterThan(0);
      for (const [name, range] of Object.entries(ranges)) {
        expect(range, `${p.name} -> ${name}`).not.toMatch(/^workspace:/);
        if (EXACT_PIN_EXCEPTIONS[p.name]?.includes(name)) continue;
        expect(range, `${p.name} -> ${name} is pinned exactly`).toMatch(/^(\^|~|>=)\d/);
      }
    }
  });
});

describe("installed with npm in a project outside the workspace", () => {
  it("lives outside the workspace and resolves our packages to the installed tarballs", async () => {
    setUp();
    expect(relative(repoDir, project.dir)).toMatch(/^\.\./);
    const { stdout } = await exec(
      "node",
      [
        "--input-type=module",
        "-e",
        `console.log(JSON.stringify(${JSON.stringify(packed.map((p) => p.name))}.map((n) => import.meta.resolve(n))))`,
      ],
      { cwd: project.dir },
    );
    for (const url of JSON.parse(stdout) as string[])
      expect(url).toMatch(
        new RegExp(`^file://${project.dir}/node_modules/@swapintent/[a-z0-9]+/dist/index\\.js$`),
      );
  });

  it("adds no version of a library that a peer does not already bring (ox with viem, @noble/curves with web3.js)", async () => {
    setUp();
    const nm = join(project.dir, "node_modules");
    // ox: one copy on disk, shared with viem (permit2's range holds every ox that viem ^2.57 pins).
    expect(findPackage(join(nm, "@swapintent", "permit2"), "ox")).toBe(findPackage(join(nm, "viem"), "ox"));
    // @noble/curves: the same version as web3.js's. npm still nests both (the top-level slot holds the 2.x that
    // @bitcoinerlab/secp256k1 brings), but a deduping installer keeps one copy, and no other version is added.
    const version = async (dir: string) =>
      (JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as { version: string }).version;
    const ours = await version(findPackage(join(nm, "@swapintent", "solana"), "@noble/curves"));
    expect(ours).toBe(await version(findPackage(join(nm, "@solana", "web3.js"), "@noble/curves")));
  });

  it("loads every export as ESM (import) and as CJS (require), with the same names", async () => {
    setUp();
    const specifiers = exportedSpecifiers(packed);
    expect(specifiers).toHaveLength(packed.reduce((n, p) => n + exportedSubpaths(p.manifest).length, 0));
    expectEveryEntryLoads(await loadEntries(project.dir, specifiers), specifiers);
  });

  it("lead an editor's go-to-definition on every exported function, from ESM and from CommonJS, through the declaration maps to its source in the tarball", () => {
    setUp();
    const specifiers = exportedSpecifiers(packed);
    const shipped = new Set(
      packed.flatMap((p) => p.files.map((f) => `${p.name}/${f.replace(/^package\//, "")}`)),
    );
    const { esm, cjs } = findDefinitions(runDir, specifiers);
    for (const definitions of [esm, cjs]) {
      // every entry exports functions, and each one's definition is a function declaration in a shipped source
      expect(new Set(definitions.map((d) => d.specifier))).toEqual(new Set(specifiers));
      for (const d of definitions) {
        const where = `${d.specifier} ${d.name} -> ${d.file}`;
        expect(d.file, where).toMatch(/^@swapintent\/[a-z0-9]+\/src\/.+\.ts$/);
        expect(shipped.has(d.file), where).toBe(true);
        expect(d.line, where).toMatch(/^export (async )?function \w+/);
      }
    }
    expect(cjs.map((d) => [d.specifier, d.name, d.file])).toEqual(
      esm.map((d) => [d.specifier, d.name, d.file]),
    );
  });

  const fixture = (file: string) => join(appDir, "fixtures", file);
  // The README's snippets are these files (a test keeps them equal); the sandbox one imports a private package.
  const EXAMPLES = [
    "bitcoin-leather.ts",
    "bitcoin-sats-connect.ts",
    "bitcoin-unisat.ts",
    "bitcoin.ts",
    "client.ts",
    "permit2-eip1193.ts",
    "permit2-evm.ts",
    "permit2-tron.ts",
    "permit2-tronlink.ts",
    "permit2-wagmi.ts",
    "solana-kit.ts",
    "solana-wallet-standard.ts",
    "solana.ts",
  ];
  it("type-checks the README's snippets: the example files are the ones this test compiles", async () => {
    const examples = (await readdir(join(repoDir, "apps", "e2e", "examples"))).filter(
      (f) => f.endsWith(".ts") && f !== "sandbox.ts",
    );
    expect(examples.sort()).toEqual(EXAMPLES);
  });

  // Each on its own, all with every strict flag and skipLibCheck false: TypeScript 5.9 (the workspace's) under
  // module node16 (ESM files and a CommonJS .cts) and bundler; the oldest we claim under node16 (the CommonJS
  // .d.cts files' resolution-mode imports need 5.3, viem's types 5.4); the newest under nodenext and bundler.
  // (5.9's nodenext only adds require() of ES modules to node16, so it is laxer for the .cts; 5.4's bundler run
  // found nothing node16 did not: both left out to save CI time, about 20 s each.)
  const TYPECHECKS: {
    name: string;
    typescript: "workspace" | "oldest" | "newest";
    mode: TypecheckSetup["mode"];
  }[] = [
    { name: "TypeScript 5.9, module node16", typescript: "workspace", mode: "node16" },
    { name: "TypeScript 5.9, moduleResolution bundler", typescript: "workspace", mode: "bundler" },
    { name: `TypeScript ${TYPESCRIPT_OLDEST} (oldest), module node16`, typescript: "oldest", mode: "node16" },
    {
      name: `TypeScript ${TYPESCRIPT_NEWEST} (newest), module nodenext`,
      typescript: "newest",
      mode: "nodenext",
    },
    { name: `TypeScript ${TYPESCRIPT_NEWEST} (newest), bundler`, typescript: "newest", mode: "bundler" },
  ];
  for (const { name, typescript, mode } of TYPECHECKS) {
    it(`typechecks every entry, the README's snippets and a CommonJS file: ${name}, every strict flag, skipLibCheck false`, async () => {
      setUp();
      const tsc =
        typescript === "workspace"
          ? require.resolve("typescript/bin/tsc")
          : join(project.dir, "node_modules", `typescript-${typescript}`, "bin", "tsc");
      const files = [
        ...EXAMPLES.map((f) => join(repoDir, "apps", "e2e", "examples", f)),
        fixture("strict.ts"),
        fixture("entries.ts"),
        // `import x = require()` is not allowed when emitting ECMAScript modules (bundler)
        ...(mode === "bundler" ? [] : [fixture("require.cts")]),
      ];
      const { errors, ms: took } = await typecheck(join(runDir, `tsc-${typescript}-${mode}`), {
        tsc,
        mode,
        lib: ["es2022", "dom"], // viem's and ox's own declarations need the DOM lib
        files,
      });
      timings[`tsc ${typescript} ${mode}`] = took;
      expect(
        unexplainedErrors(errors).map((e) => `${relative(project.dir, e.file)} ${e.code} ${e.text}`),
      ).toEqual([]);
    });
  }
  it(`typechecks every entry from a CommonJS project: TypeScript ${TYPESCRIPT_OLDEST} (oldest), module commonjs alone (moduleResolution node10, which reads no exports map), every strict flag, skipLibCheck false`, async () => {
    setUp();
    // A tsconfig with `module: commonjs` and nothing else (a Node backend's, a React Native app's) resolves as
    // node10 on TypeScript 5.x: the subpath entries (`/evm`, `/tron`, `/node`, `/wallets`, `/kit`) have types only
    // through `typesVersions`. The file is the CommonJS one (`import x = require()`), every entry.
    const { errors, ms: took } = await typecheck(join(runDir, "tsc-oldest-commonjs"), {
      tsc: join(project.dir, "node_modules", "typescript-oldest", "bin", "tsc"),
      mode: "commonjs",
      lib: ["es2022", "dom"],
      files: [fixture("require.cts")],
    });
    timings["tsc oldest commonjs"] = took;
    expect(
      unexplainedErrors(errors).map((e) => `${relative(project.dir, e.file)} ${e.code} ${e.text}`),
    ).toEqual([]);
  });
  it("typechecks every browser entry in a browser program: the DOM lib, no @types/node (TypeScript 7.0, bundler, every strict flag, skipLibCheck false)", async () => {
    setUp();
    const { errors, ms: took } = await typecheck(join(runDir, "tsc-browser"), {
      tsc: join(project.dir, "node_modules", "typescript-newest", "bin", "tsc"),
      mode: "bundler",
      lib: ["es2022", "dom"],
      types: [],
      files: [fixture("browser.ts")],
    });
    timings["tsc browser (no @types/node)"] = took;
    expect(
      unexplainedErrors(errors).map((e) => `${relative(project.dir, e.file)} ${e.code} ${e.text}`),
    ).toEqual([]);
  });

  it("typechecks every TypeScript snippet of the packed READMEs (the ones that are no example file) and every @example with imports of the .d.ts files, as written", async () => {
    setUp();
    // The README inside each tarball is the package's page on the registry. A block that copies an example file
    // (`<!-- embed: -->`) is compiled above as that file; every other block is cut out here, made a module, and
    // compiled with the app values it names (fixtures/readme-context.ts) and every strict flag.
    const dir = join(runDir, "readme-snippets");
    await mkdir(dir, { recursive: true });
    const files = [fixture("readme-context.ts")];
    // where each cut-out file came from, as a function of the error's line in it
    const origin = new Map<string, (line: number) => string>();
    const leftOut: string[] = [];
    for (const p of packed) {
      const readme = await readFile(join(project.dir, "node_modules", p.name, "README.md"), "utf8");
      for (const snippet of readmeSnippets(readme)) {
        if (snippet.embeds) {
          expect(
            EXAMPLES.map((f) => `apps/e2e/examples/${f}`),
            p.name,
          ).toContain(snippet.embeds);
          continue;
        }
        const file = join(dir, `${p.folder}-README-line-${snippet.line}.ts`);
        await writeFile(file, `${snippet.code}\nexport {};\n`);
        files.push(file);
        origin.set(basename(file), (line) => `packages/${p.folder}/README.md:${snippet.line + line - 1}`);
      }
      // The doc comments' `@example`s that import what they use (the one-liners are only parsed, below).
      const dist = join(project.dir, "node_modules", p.name, "dist");
      for (const name of (await readdir(dist, { recursive: true })).filter((f) => f.endsWith(".d.ts"))) {
        for (const example of docExamples(await readFile(join(dist, name), "utf8"))) {
          if (!/^import /m.test(example.code)) continue;
          const module = /from "(@solana\/kit|@wallet-standard\/app)"/.exec(example.code)?.[1];
          if (module) {
            leftOut.push(module);
            continue;
          }
          const file = join(dir, `${p.folder}-${name.replace(/\W/g, "_")}-${example.line}.ts`);
          await writeFile(file, `${example.code}\nexport {};\n`);
          files.push(file);
          origin.set(
            basename(file),
            (line) => `${p.name}/dist/${name}:${example.line}, line ${line} of its @example`,
          );
        }
      }
    }
    // Not installed in the consumer project (no wallet app needs both): the Kit and wallet-standard examples.
    // Those libraries' own types are checked against ours in packages/solana/src/kit.test-d.ts.
    expect(leftOut.sort()).toEqual(["@solana/kit", "@wallet-standard/app"]);
    expect(files.length).toBeGreaterThan(40);
    const { errors, ms: took } = await typecheck(join(runDir, "tsc-readme-snippets"), {
      tsc: require.resolve("typescript/bin/tsc"),
      mode: "nodenext",
      lib: ["es2022", "dom"],
      files,
      skipLibCheck: true, // declarations: checked by the runs above (5.9 under node16, 7.0 under nodenext)
    });
    timings["tsc readme-snippets nodenext"] = took;
    // each error where a reader sees it: the README line, or the doc comment and the line in its example
    const at = (e: TscError) =>
      origin.get(basename(e.file))?.(e.line) ?? `${relative(project.dir, e.file)}:${e.line}`;
    expect(unexplainedErrors(errors).map((e) => `${at(e)} ${e.code} ${e.text}`)).toEqual([]);
  });

  it("accepts the wallet SDKs' own types in the wallet adapters (sats-connect's request, @leather.io/rpc's provider), and a second viem copy's accounts and clients in permit2's EVM functions", async () => {
    setUp();
    const { errors, ms: took } = await typecheck(join(runDir, "tsc-wallet-sdks"), {
      tsc: require.resolve("typescript/bin/tsc"),
      mode: "nodenext",
      lib: ["es2022", "dom"],
      files: [fixture("wallet-sdks.ts"), fixture("second-viem.ts")],
      skipLibCheck: true, // the SDKs' own declarations are theirs; what is checked is that theirs fit ours
    });
    timings["tsc wallet-sdks nodenext"] = took;
    expect(errors.map((e) => `${relative(project.dir, e.file)}:${e.line} ${e.code} ${e.text}`)).toEqual([]);
  });

  it("parses every @example of the packed declaration files as TypeScript (a fence-less one is shown whole as code)", async () => {
    setUp();
    // What an editor's hover and the API reference show: prose left inside a fence-less @example is shown as code.
    const problems: string[] = [];
    let count = 0;
    for (const p of packed) {
      const dist = join(project.dir, "node_modules", p.name, "dist");
      for (const file of (await readdir(dist, { recursive: true })).filter((f) => f.endsWith(".d.ts"))) {
        for (const example of docExamples(await readFile(join(dist, file), "utf8"))) {
          count++;
          if (example.code.trim() === "")
            problems.push(`${p.name}/dist/${file}:${example.line} an empty @example`);
          const { diagnostics = [] } = ts.transpileModule(`${example.code}\nexport {};\n`, {
            reportDiagnostics: true,
            compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
          });
          for (const d of diagnostics.slice(0, 1))
            problems.push(
              `${p.name}/dist/${file}:${example.line} ${ts.flattenDiagnosticMessageText(d.messageText, " ")} (${
                example.code.split("\n")[0]
              })`,
            );
        }
      }
    }
    expect(count).toBeGreaterThan(40);
    expect(problems).toEqual([]);
  });

  describe("one route per approval mechanism against the sandbox, with only the installed tarballs", () => {
    let sandbox: Sandbox | undefined;
    afterAll(async () => {
      await sandbox?.close();
    });

    it("permit2 (EVM -> Solana), htlc (Bitcoin -> EVM) and cosign (Solana -> Tron) reach Fulfilled", async () => {
      setUp();
      // The demo's own code (apps/e2e/src, plus the private demo support it shares with apps/browser, which is
      // never published), bundled with every other package left as a bare import: at run time each published
      // @swapintent/* and chain library comes from the consumer project's node_modules, nothing from the workspace.
      const bundle = await build({
        entryPoints: [join(repoDir, "apps", "e2e", "src", "runDemo.ts")],
        outfile: join(runDir, "demo.mjs"),
        bundle: true,
        conditions: ["swapintent-source"],
        plugins: [externalExceptDemoSupport],
        platform: "node",
        format: "esm",
        target: "node20",
        metafile: true,
        absWorkingDir: repoDir,
        logLevel: "silent",
      });
      const inputs = Object.keys(bundle.metafile.inputs);
      expect(inputs.length).toBeGreaterThan(3);
      expect(
        inputs.filter(
          (input) => !input.startsWith("apps/e2e/src/") && !input.startsWith("packages/testing/src/"),
        ),
      ).toEqual([]);
      const imported = bundle.metafile.outputs[relative(repoDir, join(runDir, "demo.mjs"))]?.imports ?? [];
      expect(imported.filter((i) => i.path.startsWith("@swapintent/")).map((i) => i.path)).toEqual(
        expect.arrayContaining([
          "@swapintent/client",
          "@swapintent/permit2/evm",
          "@swapintent/bitcoin",
          "@swapintent/solana",
        ]),
      );
      await writeFile(
        join(runDir, "routes.mjs"),
        `import { runDemo, TOUR } from "./demo.mjs";
const wanted = ["EVM -> Solana", "Bitcoin -> EVM", "Solana -> Tron"];
const routes = TOUR.filter((r) => wanted.includes(r.name));
if (routes.length !== wanted.length) throw new Error("the tour has no route named " + wanted.join(", "));
const resolved = Object.fromEntries(
  ["@swapintent/client", "@swapintent/permit2/evm", "@swapintent/bitcoin", "@swapintent/solana"].map((n) => [n, import.meta.resolve(n)]),
);
const result = await runDemo({ baseUrl: process.argv[2], routes, json: true, out: () => {}, timeoutMs: 120000 });
console.log(JSON.stringify({ resolved, results: result.results }));
`,
      );
      const started = performance.now();
      sandbox = await startSandbox({ port: 0, dev: true, resolverIntervalMs: 100, log: () => {} });
      const { stdout } = await exec("node", ["routes.mjs", sandbox.url], {
        cwd: runDir,
        env: cleanEnv(),
      });
      timings.routesMs = performance.now() - started;
      const { resolved, results } = JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as {
        resolved: Record<string, string>;
        results: { route: string; ok: boolean; finalStatus: string; approvalMechanism: string | null }[];
      };
      for (const url of Object.values(resolved))
        expect(url.startsWith(`file://${project.dir}/node_modules/`)).toBe(true);
      expect(results.map((r) => [r.route, r.approvalMechanism, r.finalStatus, r.ok])).toEqual([
        ["EVM -> Solana", "permit2", "Fulfilled", true],
        ["Bitcoin -> EVM", "htlc", "Fulfilled", true],
        ["Solana -> Tron", "cosign", "Fulfilled", true],
      ]);
    });
  });
});

describe("one error code whatever the module system", () => {
  it("refuses the same way through every entry under import and require: the same code, and every guard of the package (any entry's) and the client's says yes", async () => {
    setUp();
    const { buildDeposit, userKey, hex } = await import("../../../packages/bitcoin/test/fixtures.js");
    const deposit = buildDeposit();
    const walletCase = {
      intent: deposit.intent,
      sourceAmountLots: deposit.quote.sourceAmountLots.toString(),
      userPublicKey: hex(userKey.publicKey),
    };
    const specifiers = exportedSpecifiers(packed);
    const [esm, cjs] = await Promise.all([
      collectRefusals(runDir, "import", specifiers, walletCase),
      collectRefusals(runDir, "require", specifiers, walletCase),
    ]);
    expect(cjs).toEqual(esm);
    // every entry refuses something with a code of its own package
    for (const specifier of specifiers) {
      const coded = Object.entries(esm).filter(([k, r]) => k.startsWith(`${specifier}#`) && r.code);
      expect(coded.length, `${specifier} refused nothing with a code`).toBeGreaterThan(0);
    }
    for (const [call, r] of Object.entries(esm)) {
      if (!r.guards) continue;
      expect(Object.keys(r.guards).length, call).toBeGreaterThan(1);
      expect(
        Object.entries(r.guards).filter(([, yes]) => !yes),
        `${call}: ${r.code}`,
      ).toEqual([]);
    }
    // a wallet's cancel, made by /wallets and asked by the root and by /node, is the code the README documents
    const cancels = Object.entries(esm).filter(([k]) => k.endsWith("cancelled"));
    expect(cancels.map(([, r]) => r.code)).toEqual(["BTC_WALLET_REJECTED", "BTC_WALLET_REJECTED"]);
  });
});

describe("loaded as CommonJS by a runtime with no dynamic import (Jest's default: node:vm without --experimental-vm-modules)", () => {
  it("the CommonJS files hold no dynamic import(): a lazily loaded peer is require()d", async () => {
    setUp();
    const found: string[] = [];
    for (const p of packed) {
      const dist = join(project.dir, "node_modules", p.name, "dist");
      for (const file of (await readdir(dist)).filter((f) => f.endsWith(".cjs"))) {
        const text = await readFile(join(dist, file), "utf8");
        for (const m of text.matchAll(/\bimport\(\s*["'`]?([^"'`)\s]*)/g))
          found.push(`${p.name}/dist/${file}: import(${m[1]})`);
      }
    }
    expect(found).toEqual([]);
  });

  it("signs a Tron permit2 with a private key through /tron's CommonJS file (tronweb loaded on first use)", async () => {
    setUp();
    const { buildPermit2Fixture, USER_PRIVATE_KEY } = await import(
      "../../../packages/permit2/test/fixtures/buildPermit2Fixture.js"
    );
    // As Jest runs a CommonJS test: each file compiled by node:vm, whose code has no dynamic-import hook (an
    // import() in it rejects), with `require` resolving from the wallet project's node_modules.
    const file = join(project.dir, "node_modules", "@swapintent", "permit2", "dist", "tron.cjs");
    const wrapper = compileFunction(
      await readFile(file, "utf8"),
      ["exports", "require", "module", "__filename", "__dirname"],
      { filename: file },
    );
    const cjsModule = { exports: {} as Record<string, unknown> };
    wrapper(cjsModule.exports, createRequire(file), cjsModule, file, dirname(file));
    // (this app does not depend on @swapintent/permit2: the one function it calls, typed by hand)
    const tron = cjsModule.exports as {
      signTronPermit2Approval: (parameters: Record<string, unknown>) => Promise<{ approval: unknown }>;
    };
    const f = buildPermit2Fixture({ chain: "tron" });
    const signed = await tron
      .signTronPermit2Approval({
        intent: f.intent,
        quote: f.quote,
        expected: f.expected,
        allowedPermit2Addresses: f.allowedPermit2Addresses,
        nowMs: f.nowMs,
        privateKey: USER_PRIVATE_KEY,
      })
      .catch((error: unknown) => error as Error & { code?: string });
    expect("code" in signed ? `${signed.code}: ${signed.message}` : "signed").toBe("signed");
  });
});

describe("installed by pnpm with node-linker=isolated and strict-peer-dependencies (no hoisting)", () => {
  it("installs (every peer range satisfiable) and loads every export as ESM and CJS seeing only declared dependencies", async () => {
    setUp();
    expect(existsSync(join(pnpmProject.dir, "node_modules", ".pnpm"))).toBe(true);
    // isolated: a package's own node_modules holds only what it declares, so an undeclared import would fail here
    expect(existsSync(join(pnpmProject.dir, "node_modules", "ox"))).toBe(false);
    const specifiers = exportedSpecifiers(packed);
    const loaded = await loadEntries(pnpmProject.dir, specifiers);
    expectEveryEntryLoads(loaded, specifiers);
    for (const r of Object.values(loaded)) expect(r.esmFile).toContain("/node_modules/.pnpm/@swapintent+");
  });
});

describe("installed by npm without the optional peers (viem, tronweb, @solana/web3.js, tiny-secp256k1, ecpair)", () => {
  /** The entries that need an optional peer, and the peer their load error must name (as the READMEs say). */
  const NEEDS_PEER: Record<string, string> = {
    "@swapintent/permit2/evm": "viem",
    "@swapintent/solana": "@solana/web3.js",
    "@swapintent/bitcoin/node": "tiny-secp256k1",
  };

  it("loads every other entry as ESM and CJS; the three that need a peer fail naming it", async () => {
    setUp();
    const nm = join(minimal.dir, "node_modules");
    for (const peer of ["viem", "tronweb", "@solana/web3.js", "tiny-secp256k1", "ecpair"])
      expect(existsSync(join(nm, peer)), peer).toBe(false);
    const specifiers = exportedSpecifiers(packed);
    const loaded = await loadEntries(minimal.dir, specifiers);
    const free = specifiers.filter((s) => !(s in NEEDS_PEER));
    expect(free).toHaveLength(specifiers.length - 3);
    expectEveryEntryLoads(Object.fromEntries(free.map((s) => [s, loaded[s] as LoadedEntry])), free);
    for (const [specifier, peer] of Object.entries(NEEDS_PEER)) {
      expect(loaded[specifier]?.esmError, specifier).toContain(`'${peer}'`);
      expect(loaded[specifier]?.cjsError, specifier).toContain(`'${peer}'`);
    }
  });

  it("typechecks those entries in a Node program without the DOM lib (module nodenext, every strict flag, skipLibCheck false)", async () => {
    setUp();
    const { errors, ms: took } = await typecheck(join(minimal.dir, "tsc-minimal"), {
      tsc: require.resolve("typescript/bin/tsc"),
      mode: "nodenext",
      lib: ["es2022"],
      files: [join(appDir, "fixtures", "minimal.ts")],
    });
    timings["tsc minimal nodenext"] = took;
    // not even a third-party error is expected here: nothing that needs the DOM lib is installed
    expect(errors.map((e) => `${relative(minimal.dir, e.file)} ${e.code} ${e.text}`)).toEqual([]);
  });
});

describe("the tarballs as the ecosystem's checkers see them", () => {
  it("attw (every resolution mode: node10, node16 from CJS and ESM, bundler) passes on the packed tarballs themselves (publishConfig applied)", async () => {
    setUp();
    // `attw --pack .` would check what `npm pack` makes, which ignores publishConfig: here, what is published.
    // (publint, in each package's `publint` script, already packs with pnpm.)
    const started = performance.now();
    const attw = join(dirname(require.resolve("@arethetypeswrong/cli/package.json")), "dist", "index.js");
    for (const p of packed) await exec("node", [attw, p.tarball, "--format", "json"], { cwd: repoDir });
    timings.tarballChecksMs = performance.now() - started;
  });

  it("bundle for the browser from the installed tarballs with no Node built-in, and an unused import leaves nothing", async () => {
    setUp();
    const started = performance.now();
    const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    // @swapintent/bitcoin/node is the Node entry (tiny-secp256k1 reads its .wasm from disk): never for a browser
    const entries = exportedSpecifiers(packed).filter((s) => s !== "@swapintent/bitcoin/node");
    for (const entry of entries) {
      const builtinImports: string[] = [];
      const recordBuiltins: Plugin = {
        name: "record-builtins",
        setup(b) {
          b.onResolve({ filter: /.*/ }, (args) => {
            // our dist imports no built-in at all; a library's `buffer` may be the npm package of that name (as
            // @solana/web3.js's is), and a built-in that resolves to no package fails the build
            if (builtins.has(args.path) && args.importer.includes("/node_modules/@swapintent/"))
              builtinImports.push(`${args.path} <- ${args.importer}`);
            return undefined;
          });
        },
      };
      const bundle = async (contents: string) =>
        build({
          stdin: { contents, resolveDir: project.dir, loader: "js" },
          bundle: true,
          write: false,
          platform: "browser",
          format: "esm",
          minify: true,
          logLevel: "silent",
          plugins: [recordBuiltins],
        });
      const used = await bundle(`export * from "${entry}";`);
      expect(used.outputFiles[0]?.text.length ?? 0, entry).toBeGreaterThan(1000);
      expect(builtinImports, entry).toEqual([]);
      // sideEffects: false is true of every module: importing an entry for nothing bundles nothing
      const unused = await bundle(`import "${entry}";`);
      expect(unused.outputFiles[0]?.text ?? "", entry).toBe("");
    }
    timings.bundlesMs = performance.now() - started;
  });
});
