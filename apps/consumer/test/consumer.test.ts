import { existsSync, realpathSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { builtinModules, createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { compileFunction } from "node:vm";
import { build, type Plugin } from "esbuild";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { findDefinitions } from "./definitions.js";
import {
  type ConsumerProject,
  createConsumerProject,
  exec,
  exportedSpecifiers,
  exportedSubpaths,
  exportTargets,
  type LoadedEntry,
  loadEntries,
  type PackedPackage,
  repoDir,
} from "./project.js";
import { collectRefusals } from "./refusals.js";
import { ROUTES_FULFILLED, runRoutes } from "./routes.js";
import { withCompilerSlot } from "./typecheck.js";

const require = createRequire(import.meta.url);
const appDir = join(repoDir, "apps", "consumer");

/**
 * Exact pins a package may still carry, each with its owner. Every other dependency of a published package must be
 * a range, so that a wallet's own copy of the same library can satisfy it (no second copy installed).
 */
const EXACT_PIN_EXCEPTIONS: Record<string, string[]> = {};

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
    // built and packed once for every file of this project (test/globalSetup.ts)
    if (inject("packError")) throw new Error(inject("packError"));
    packed = inject("packed");
    packDir = dirname(packed[0]?.tarball ?? "");
    timings.buildAndPackMs = performance.now() - started;
    // the three installs at once: mostly waiting on the registry
    [project, minimal, pnpmProject] = await Promise.all([
      createConsumerProject(packed, "full", inject("consumerRunId")),
      createConsumerProject(packed, "minimal", inject("consumerRunId")),
      createConsumerProject(packed, "pnpm", inject("consumerRunId")),
    ]);
    timings.installMs = performance.now() - started - timings.buildAndPackMs;
    runDir = await mkdtemp(join(project.dir, "run-"));
  } catch (error) {
    setupError = error;
  }
});

afterAll(async () => {
  if (runDir) await rm(runDir, { recursive: true, force: true });
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

  it("carry the version of the package.json they were packed from, and a CHANGELOG whose notes begin with that version", async () => {
    setUp();
    for (const p of packed) {
      const source = JSON.parse(await readFile(join(repoDir, "packages", p.folder, "package.json"), "utf8"));
      expect(p.manifest.version, p.name).toBe(source.version);
      const changelog = (
        await exec("tar", ["xzf", p.tarball, "-O", "package/CHANGELOG.md"], { cwd: packDir })
      ).stdout;
      // the first version heading is the packed version: the notes on top describe this tarball
      expect(/^## (\S+)$/m.exec(changelog)?.[1], p.name).toBe(p.manifest.version);
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
        expect(d.line, where).toMatch(/^export (async )?function\*? ?\w+/);
      }
    }
    expect(cjs.map((d) => [d.specifier, d.name, d.file])).toEqual(
      esm.map((d) => [d.specifier, d.name, d.file]),
    );
  });

  it("permit2 (EVM -> Solana), htlc (Bitcoin -> EVM) and cosign (Solana -> Tron) reach Fulfilled against the sandbox, with only the installed tarballs", async () => {
    setUp();
    const started = performance.now();
    const { inputs, imported, resolved, results } = await runRoutes(runDir);
    timings.routesMs = performance.now() - started;
    expect(inputs.length).toBeGreaterThan(3);
    expect(
      inputs.filter(
        (input) => !input.startsWith("apps/e2e/src/") && !input.startsWith("packages/testing/src/"),
      ),
    ).toEqual([]);
    expect(imported.filter((i) => i.startsWith("@swapintent/"))).toEqual(
      expect.arrayContaining([
        "@swapintent/client",
        "@swapintent/permit2/evm",
        "@swapintent/bitcoin",
        "@swapintent/solana",
      ]),
    );
    for (const url of Object.values(resolved))
      expect(url.startsWith(`file://${project.dir}/node_modules/`)).toBe(true);
    expect(results.map((r) => [r.route, r.approvalMechanism, r.finalStatus, r.ok])).toEqual(ROUTES_FULFILLED);
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
});

describe("the tarballs as the ecosystem's checkers see them", () => {
  it("attw (every resolution mode: node10, node16 from CJS and ESM, bundler) passes on the packed tarballs themselves (publishConfig applied)", async () => {
    setUp();
    // `attw --pack .` would check what `npm pack` makes, which ignores publishConfig: here, what is published.
    // (publint, in each package's `publint` script, already packs with pnpm.)
    const started = performance.now();
    const attw = join(dirname(require.resolve("@arethetypeswrong/cli/package.json")), "dist", "index.js");
    // each tarball's check is a compiler run of its own: beside each other, one per core
    await Promise.all(
      packed.map((p) =>
        withCompilerSlot(() => exec("node", [attw, p.tarball, "--format", "json"], { cwd: repoDir })),
      ),
    );
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
