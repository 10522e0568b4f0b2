/**
 * The Kit entry pulls in no `@solana/web3.js`: `src/kit.ts` bundled by esbuild with nothing external (every
 * dependency that is imported goes into the bundle), its inputs listed from the metafile. The main entry, bundled
 * the same way, does contain web3.js: the check can see it.
 */
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../src/", import.meta.url));

/** The files esbuild put into the bundle of `entry`, nothing external. */
async function inputsOf(entry: string): Promise<string[]> {
  const { metafile } = await build({
    entryPoints: [`${SRC}${entry}`],
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "browser",
    conditions: ["swapintent-source"],
    logLevel: "silent",
  });
  return Object.keys(metafile.inputs);
}

describe("bundles", () => {
  it("@swapintent/solana/kit: no @solana/web3.js, no Kit at run time; noble and the client only", async () => {
    const inputs = await inputsOf("kit.ts");
    expect(inputs.filter((path) => /@solana[+/]web3\.js|[/+]bn\.js|[/+]buffer[/@]/.test(path))).toEqual([]);
    expect(inputs.filter((path) => /node_modules\/@solana\//.test(path))).toEqual([]);
    const packages = new Set(
      inputs.flatMap((path) =>
        [...path.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)\//g)].map((m) => m[1]!).slice(-1),
      ),
    );
    // Only this package's own dependencies and those of @swapintent/client.
    const own = (await import("../package.json", { with: { type: "json" } })).default.dependencies;
    // the client has no dependencies today (its schemas are its own), so its manifest may have no such field
    const clientManifest = (await import("../../client/package.json", { with: { type: "json" } }))
      .default as { dependencies?: Record<string, string> };
    const client = clientManifest.dependencies;
    const allowed = new Set([...Object.keys(own), ...Object.keys(client ?? {})]);
    expect([...packages].filter((name) => !allowed.has(name))).toEqual([]);
    expect(packages.has("@noble/curves")).toBe(true);
    expect(inputs.some((path) => /(^|\/)client\/src\//.test(path))).toBe(true);
  });

  it("the main entry (control): web3.js is in its bundle, so the check above can see it", async () => {
    const inputs = await inputsOf("index.ts");
    expect(inputs.some((path) => /@solana[+/]web3\.js/.test(path))).toBe(true);
  });
});
