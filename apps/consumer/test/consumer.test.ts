import { existsSync, realpathSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { type Sandbox, startSandbox } from "@swapintent/sandbox";
import { build, type Plugin } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ConsumerProject,
  createConsumerProject,
  exec,
  exportedSubpaths,
  exportTargets,
  type PackedPackage,
  packPublished,
  repoDir,
} from "./project.js";

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
    project = await createConsumerProject(packed);
    timings.installMs = project.installMs;
    runDir = await mkdtemp(join(project.dir, "run-"));
  } catch (error) {
    setupError = error;
  }
});

afterAll(async () => {
  if (runDir) await rm(runDir, { recursive: true, force: true });
  if (packDir) await rm(packDir, { recursive: true, force: true });
  console.log(
    `consumer test: build+pack ${ms(timings.buildAndPackMs)}, npm install ${
      project?.installed ? ms(timings.installMs) : "reused"
    }, typecheck node16 ${ms(timings.node16Ms)} / bundler ${ms(timings.bundlerMs)}, routes ${ms(timings.routesMs)}`,
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

function ms(value: number | undefined): string {
  return value === undefined ? "-" : `${(value / 1000).toFixed(1)} s`;
}

describe("the published tarballs (pnpm pack)", () => {
  it("hold dist, LICENSE and README, and no TypeScript source or tests", () => {
    setUp();
    expect(packed.map((p) => p.folder)).toEqual(["client", "permit2", "bitcoin", "solana"]);
    for (const p of packed) {
      const files = p.files.map((f) => f.replace(/^package\//, ""));
      expect(files, p.name).toEqual(expect.arrayContaining(["LICENSE", "README.md", "package.json"]));
      const unexpected = files.filter(
        (f) =>
          !["LICENSE", "README.md", "CHANGELOG.md", "package.json"].includes(f) &&
          !/^dist\/[^/]+\.(js|cjs|d\.ts|d\.cts|js\.map|cjs\.map)$/.test(f),
      );
      expect(unexpected, `${p.name} ships files outside dist`).toEqual([]);
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
    const specifiers = packed.flatMap((p) =>
      exportedSubpaths(p.manifest).map((sub) => (sub === "." ? p.name : `${p.name}/${sub.slice(2)}`)),
    );
    expect(specifiers).toHaveLength(packed.reduce((n, p) => n + exportedSubpaths(p.manifest).length, 0));
    const script = `
      import { createRequire } from "node:module";
      const require = createRequire(import.meta.url);
      const out = {};
      for (const s of ${JSON.stringify(specifiers)}) {
        const esm = await import(s);
        const cjs = require(s);
        out[s] = {
          esm: Object.keys(esm).filter((k) => k !== "default").sort(),
          cjs: Object.keys(cjs).sort(),
          esmFile: import.meta.resolve(s),
          cjsFile: require.resolve(s),
          undefinedEsm: Object.keys(esm).filter((k) => esm[k] === undefined),
        };
      }
      console.log(JSON.stringify(out));`;
    const { stdout } = await exec("node", ["--input-type=module", "-e", script], { cwd: project.dir });
    const loaded = JSON.parse(stdout) as Record<
      string,
      { esm: string[]; cjs: string[]; esmFile: string; cjsFile: string; undefinedEsm: string[] }
    >;
    expect(Object.keys(loaded).sort()).toEqual([...specifiers].sort());
    for (const [specifier, r] of Object.entries(loaded)) {
      expect(r.esm.length, specifier).toBeGreaterThan(0);
      expect(r.cjs, specifier).toEqual(r.esm);
      expect(r.undefinedEsm, specifier).toEqual([]);
      expect(r.esmFile, specifier).toMatch(/\/dist\/[a-z]+\.js$/);
      expect(r.cjsFile, specifier).toMatch(/\/dist\/[a-z]+\.cjs$/);
    }
  });

  for (const mode of ["node16", "bundler"] as const) {
    it(`typechecks README-style code with strict + exactOptionalPropertyTypes under ${
      mode === "node16" ? "module: node16 (ESM and a .cts file)" : "moduleResolution: bundler"
    }`, async () => {
      setUp();
      const dir = join(runDir, `typecheck-${mode}`);
      await mkdir(dir, { recursive: true });
      // The README's snippets are these files (a test keeps them equal); the sandbox one imports a private package.
      const examples = join(repoDir, "apps", "e2e", "examples");
      const copied: string[] = [];
      for (const file of await readdir(examples)) {
        if (!file.endsWith(".ts") || file === "sandbox.ts") continue;
        await copyFile(join(examples, file), join(dir, file));
        copied.push(file);
      }
      expect(copied.sort()).toEqual([
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
      ]);
      await copyFile(join(appDir, "fixtures", "strict.ts"), join(dir, "strict.ts"));
      if (mode === "node16")
        await copyFile(join(appDir, "fixtures", "require.cts"), join(dir, "require.cts"));
      const compilerOptions = {
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        target: "es2022",
        lib: ["es2022"],
        types: ["node"],
        skipLibCheck: true,
        noEmit: true,
        ...(mode === "node16"
          ? { module: "node16", moduleResolution: "node16" }
          : { module: "esnext", moduleResolution: "bundler" }),
      };
      await writeFile(
        join(dir, "tsconfig.json"),
        JSON.stringify({ compilerOptions, include: ["*.ts", "*.cts"] }, null, 2),
      );
      const started = performance.now();
      const tsc = require.resolve("typescript/bin/tsc");
      const result = await exec("node", [tsc, "-p", "tsconfig.json", "--pretty", "false"], { cwd: dir }).then(
        () => "",
        (error: Error) => error.message,
      );
      timings[`${mode}Ms`] = performance.now() - started;
      expect(result, "tsc reported errors").toBe("");
    });
  }

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
        env: { ...process.env, NODE_OPTIONS: "", NODE_PATH: "" },
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
