import { createRequire } from "node:module";
import { dirname, join, normalize } from "node:path";
import { type ContractArtifact, compileSolidity, readOptional } from "./compileSolidity.js";

/**
 * The real Permit2 contract, compiled from the sources shipped in npm `@uniswap/v4-periphery`
 * (`lib/permit2/src/Permit2.sol` with `lib/solmate`) with solc 0.8.17 and Permit2's own settings
 * (via-IR, optimizer runs 1,000,000, bytecodeHash none, evmVersion london). The first call compiles
 * (~12 s) and caches the artifact outside git; later calls read the cache. `onProgress` hears how the compile goes.
 *
 * @example
 * const permit2 = await loadPermit2Artifact({ onProgress: console.log });
 */
export async function loadPermit2Artifact({
  onProgress,
}: {
  onProgress?: (message: string) => void;
} = {}): Promise<ContractArtifact> {
  const require = createRequire(import.meta.url);
  const periphery = dirname(require.resolve("@uniswap/v4-periphery/package.json"));
  const root = join(periphery, "lib", "permit2");
  const readImport = (path: string): string | undefined => {
    // Unit names arrive resolved and remapped (`solmate/` -> `lib/solmate/`), relative to Permit2's root.
    const resolved = normalize(join(root, path));
    if (!resolved.startsWith(root)) return undefined;
    return readOptional(resolved);
  };
  const main = readImport("src/Permit2.sol");
  if (main === undefined)
    throw new Error("loadPermit2Artifact: Permit2.sol not found in @uniswap/v4-periphery");
  const artifacts = await compileSolidity({
    label: "permit2",
    sources: { "src/Permit2.sol": main },
    settings: {
      viaIR: true,
      optimizer: { enabled: true, runs: 1_000_000 },
      metadata: { bytecodeHash: "none" },
      evmVersion: "london",
      remappings: ["solmate/=lib/solmate/"],
    },
    contracts: ["src/Permit2.sol:Permit2"],
    readImport,
    onProgress,
  });
  return artifacts.Permit2 as ContractArtifact;
}
