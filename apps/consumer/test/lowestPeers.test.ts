import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  type ConsumerProject,
  createConsumerProject,
  exportedSpecifiers,
  exportedSubpaths,
  type LoadedEntry,
  loadEntries,
  lowestVersion,
  type PackedPackage,
  repoDir,
} from "./project.js";
import { collectRefusals } from "./refusals.js";
import { ROUTES_FULFILLED, runRoutes } from "./routes.js";
import { typecheck, unexplainedErrors } from "./typecheck.js";

/**
 * The tarballs installed by npm with every peer (optional ones too) at the LOWEST version its declared range admits,
 * exactly (consumer.test.ts installs the newest the ranges admit). A range is only as wide as what passes here.
 */
const require = createRequire(import.meta.url);
const appDir = join(repoDir, "apps", "consumer");
let packed: PackedPackage[] = [];
let project: ConsumerProject;
let runDir: string;
let setupError: unknown;
function setUp(): void {
  if (setupError) throw setupError;
}

beforeAll(async () => {
  try {
    if (inject("packError")) throw new Error(inject("packError"));
    packed = inject("packed");
    project = await createConsumerProject(packed, "lowest", inject("consumerRunId"));
    runDir = await mkdtemp(join(project.dir, "run-"));
  } catch (error) {
    setupError = error;
  }
});
afterAll(async () => {
  if (runDir) await rm(runDir, { recursive: true, force: true });
});

/** Every peer of every tarball with the lowest version its range admits. */
function lowestPeers(): Record<string, string> {
  const peers: Record<string, string> = {};
  for (const p of packed)
    for (const [name, range] of Object.entries(p.manifest.peerDependencies ?? {}))
      peers[name] = lowestVersion(range);
  return peers;
}

describe("installed by npm with every peer at the lowest version its range admits", () => {
  it("installs exactly those versions (viem, tronweb, bitcoinjs-lib, ecpair, both secp256k1 backends, web3.js)", () => {
    setUp();
    const peers = lowestPeers();
    expect(Object.keys(peers).sort()).toEqual(
      [
        "@bitcoinerlab/secp256k1",
        "@solana/web3.js",
        "bitcoinjs-lib",
        "ecpair",
        "tiny-secp256k1",
        "tronweb",
        "viem",
      ].sort(),
    );
    for (const [name, version] of Object.entries(peers)) {
      const installed = JSON.parse(
        readFileSync(join(project.dir, "node_modules", name, "package.json"), "utf8"),
      ) as { version: string };
      expect(installed.version, name).toBe(version);
    }
  });

  it("loads every export as ESM and CJS, with the same names", async () => {
    setUp();
    const specifiers = exportedSpecifiers(packed);
    expect(specifiers).toHaveLength(packed.reduce((n, p) => n + exportedSubpaths(p.manifest).length, 0));
    const loaded = await loadEntries(project.dir, specifiers);
    expect(Object.keys(loaded).sort()).toEqual([...specifiers].sort());
    for (const [specifier, r] of Object.entries(loaded) as [string, LoadedEntry][]) {
      expect([r.esmError, r.cjsError], specifier).toEqual([undefined, undefined]);
      expect(r.cjs, specifier).toEqual(r.esm);
      expect(r.esm.length, specifier).toBeGreaterThan(0);
    }
  });

  it("refuses the same way under import and require, every guard saying yes, a Unisat cancel BTC_WALLET_REJECTED", async () => {
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
    for (const [call, r] of Object.entries(esm))
      if (r.guards) expect(Object.values(r.guards).every(Boolean), `${call}: ${r.code}`).toBe(true);
    const cancels = Object.entries(esm).filter(([k]) => k.endsWith("cancelled"));
    expect(cancels.map(([, r]) => r.code)).toEqual(["BTC_WALLET_REJECTED", "BTC_WALLET_REJECTED"]);
  });

  // The compiler and the routes (a sandbox here, the demo in a child node) run beside each other.
  it.concurrent("typechecks every entry, a CommonJS file and the README snippets that need only our packages and their peers (TypeScript 5.9, module node16, every strict flag, skipLibCheck false)", async ({
    expect,
  }) => {
    setUp();
    const examplesDir = join(repoDir, "apps", "e2e", "examples");
    // a bare import is installed here when its package folder is (the private demo support never is)
    const installed = (specifier: string) =>
      existsSync(
        join(
          project.dir,
          "node_modules",
          ...specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1),
        ),
      );
    const examples: string[] = [];
    for (const file of ["bitcoin.ts", "client.ts", "permit2-evm.ts", "permit2-tron.ts", "solana.ts"]) {
      const text = await readFile(join(examplesDir, file), "utf8");
      const imports = [...text.matchAll(/from "([^"]+)"/g)].map((m) => m[1] ?? "");
      expect(
        imports.filter((i) => !i.startsWith(".") && !installed(i)),
        file,
      ).toEqual([]);
      examples.push(join(examplesDir, file));
    }
    const { errors } = await typecheck(join(runDir, "tsc-node16"), {
      tsc: require.resolve("typescript/bin/tsc"),
      mode: "node16",
      lib: ["es2022", "dom"],
      files: [
        ...examples,
        join(appDir, "fixtures", "strict.ts"),
        join(appDir, "fixtures", "entries.ts"),
        join(appDir, "fixtures", "require.cts"),
      ],
    });
    expect(
      unexplainedErrors(errors).map((e) => `${relative(project.dir, e.file)}:${e.line} ${e.code} ${e.text}`),
    ).toEqual([]);
  });

  it.concurrent("permit2 (EVM -> Solana), htlc (Bitcoin -> EVM) and cosign (Solana -> Tron) reach Fulfilled against the sandbox", async ({
    expect,
  }) => {
    setUp();
    const { resolved, results } = await runRoutes(runDir);
    for (const url of Object.values(resolved))
      expect(url.startsWith(`file://${project.dir}/node_modules/`)).toBe(true);
    expect(results.map((r) => [r.route, r.approvalMechanism, r.finalStatus, r.ok])).toEqual(ROUTES_FULFILLED);
  });
});
