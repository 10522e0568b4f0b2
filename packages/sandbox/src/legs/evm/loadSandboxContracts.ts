import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type ContractArtifact, compileSolidity } from "./compileSolidity.js";
import { findPackageRoot } from "./findPackageRoot.js";

/** The sandbox's own contracts: the test ERC-20 and the escrow. */
export interface SandboxContracts {
  SandboxToken: ContractArtifact;
  SwapEscrow: ContractArtifact;
}

/**
 * Compile the sandbox's own Solidity (`src/legs/evm/contracts/*.sol`) with solc 0.8.17, cached outside git
 * like Permit2.
 */
export async function loadSandboxContracts(): Promise<SandboxContracts> {
  const folder = join(findPackageRoot(), "src", "legs", "evm", "contracts");
  const sources = {
    "SandboxToken.sol": readFileSync(join(folder, "SandboxToken.sol"), "utf8"),
    "SwapEscrow.sol": readFileSync(join(folder, "SwapEscrow.sol"), "utf8"),
  };
  const artifacts = await compileSolidity({
    label: "sandbox-contracts",
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      metadata: { bytecodeHash: "none" },
      evmVersion: "london",
    },
    contracts: ["SandboxToken.sol:SandboxToken", "SwapEscrow.sol:SwapEscrow"],
  });
  return artifacts as unknown as SandboxContracts;
}
