import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename, join, relative } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, inject, it } from "vitest";
import {
  type ConsumerProject,
  createConsumerProject,
  type PackedPackage,
  repoDir,
  TYPESCRIPT_NEWEST,
  TYPESCRIPT_OLDEST,
} from "./project.js";
import { docExamples, readmeSnippets } from "./snippets.js";
import { type TscError, type TypecheckSetup, typecheck, unexplainedErrors } from "./typecheck.js";

/**
 * The types of the published tarballs as a wallet's compiler sees them, in the `full` and `minimal` npm projects
 * that consumer.test.ts also uses (one install per run, shared): every entry, the README's snippets and every
 * `@example`, under each TypeScript and module mode we claim. Apart from consumer.test.ts so that the compiler runs
 * overlap with its installs, loads and sandbox routes.
 */
const require = createRequire(import.meta.url);
const appDir = join(repoDir, "apps", "consumer");

let packed: PackedPackage[] = [];
let project: ConsumerProject;
let minimal: ConsumerProject;
let runDir: string;
const timings: Record<string, number> = {};

/** A setup failure fails every test with its message: nothing here is ever skipped. */
let setupError: unknown;
function setUp(): void {
  if (setupError) throw setupError;
}

beforeAll(async () => {
  try {
    if (inject("packError")) throw new Error(inject("packError"));
    packed = inject("packed");
    [project, minimal] = await Promise.all([
      createConsumerProject(packed, "full", inject("consumerRunId")),
      createConsumerProject(packed, "minimal", inject("consumerRunId")),
    ]);
    runDir = await mkdtemp(join(project.dir, "run-types-"));
  } catch (error) {
    setupError = error;
  }
});

afterAll(async () => {
  if (runDir) await rm(runDir, { recursive: true, force: true });
  const typechecks = Object.entries(timings)
    .map(([k, v]) => `${k.slice(4)} ${(v / 1000).toFixed(1)} s`)
    .join(", ");
  console.log(`consumer types: ${typechecks}`);
});

// Every test here runs beside the others (describe.concurrent), each compiler in its own folder: the compilers are
// child processes, as many at once as there are cores (test/typecheck.ts), so the file takes about the time of its
// longest compiler runs instead of their sum.
describe.concurrent("the tarballs' types in an npm project outside the workspace", () => {
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
  it("type-checks the README's snippets: the example files are the ones this test compiles", async ({
    expect,
  }) => {
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
    it(`typechecks every entry, the README's snippets and a CommonJS file: ${name}, every strict flag, skipLibCheck false`, async ({
      expect,
    }) => {
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
  it(`typechecks every entry from a CommonJS project: TypeScript ${TYPESCRIPT_OLDEST} (oldest), module commonjs alone (moduleResolution node10, which reads no exports map), every strict flag, skipLibCheck false`, async ({
    expect,
  }) => {
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
  it("typechecks every browser entry in a browser program: the DOM lib, no @types/node (TypeScript 7.0, bundler, every strict flag, skipLibCheck false)", async ({
    expect,
  }) => {
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

  it("typechecks every TypeScript snippet of the packed READMEs (the ones that are no example file) and every @example with imports of the .d.ts files, as written", async ({
    expect,
  }) => {
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
    // A floor that proves the collection found them: the short READMEs hold few blocks (the site's pages are
    // typechecked in apps/docs), the packages' `@example`s most.
    expect(files.length).toBeGreaterThan(30);
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

  it("accepts the wallet SDKs' own types in the wallet adapters (sats-connect's request, @leather.io/rpc's provider), and a second viem copy's accounts and clients in permit2's EVM functions", async ({
    expect,
  }) => {
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

  it("parses every @example of the packed declaration files as TypeScript (a fence-less one is shown whole as code)", async ({
    expect,
  }) => {
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
});

describe.concurrent("the tarballs' types without the optional peers", () => {
  it("typechecks those entries in a Node program without the DOM lib (module nodenext, every strict flag, skipLibCheck false)", async ({
    expect,
  }) => {
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
