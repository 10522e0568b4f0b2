/**
 * Bundle check: bundles each entry with esbuild (peers external, workspace sources through the
 * `swapintent-source` condition) and inspects what went in, so the root stays free of viem and tronweb
 * and `./evm` free of tronweb.
 */
import { fileURLToPath } from "node:url";
import { build, type Metafile } from "esbuild";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

async function bundle(
  entry: string,
  options: { external: string[] },
): Promise<{ metafile: Metafile; code: string }> {
  const result = await build({
    entryPoints: [`${root}/src/${entry}`],
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["swapintent-source", "import", "module", "default"],
    external: options.external,
    logLevel: "silent",
  });
  return { metafile: result.metafile, code: result.outputFiles[0]!.text };
}

function importsOf(metafile: Metafile): string[] {
  return Object.values(metafile.outputs).flatMap((o) => o.imports.map((i) => i.path));
}

describe("entry bundles", () => {
  it("root: no viem and no tronweb, even when nothing is external", async () => {
    const { metafile, code } = await bundle("index.ts", { external: [] });
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.some((p) => p.includes("node_modules/ox/"))).toBe(true);
    expect(inputs.filter((p) => /node_modules\/(viem|tronweb|ethers)\//.test(p))).toEqual([]);
    expect(code).not.toMatch(/from ["']tronweb["']|import\(["']tronweb["']\)/);
  });

  it("./evm: viem stays an external import, tronweb is absent", async () => {
    const { metafile, code } = await bundle("evm.ts", { external: ["viem", "viem/*", "tronweb"] });
    expect(importsOf(metafile).some((p) => p === "viem")).toBe(true);
    expect(importsOf(metafile).filter((p) => p.startsWith("tronweb"))).toEqual([]);
    expect(Object.keys(metafile.inputs).filter((p) => p.includes("tronweb"))).toEqual([]);
    expect(code).not.toContain("tronweb");
  });

  it("./tron: tronweb only as a lazy dynamic import", async () => {
    const { metafile } = await bundle("tron.ts", { external: ["viem", "viem/*", "tronweb"] });
    const tronImports = Object.values(metafile.outputs).flatMap((o) =>
      o.imports.filter((i) => i.path === "tronweb"),
    );
    expect(tronImports.length).toBeGreaterThan(0);
    expect(tronImports.every((i) => i.kind === "dynamic-import")).toBe(true);
    expect(importsOf(metafile).filter((p) => p.startsWith("viem"))).toEqual([]);
  });
});
