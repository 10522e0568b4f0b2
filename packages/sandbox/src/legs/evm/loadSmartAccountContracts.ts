import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type ContractArtifact, compileSolidity } from "./compileSolidity.js";
import { findPackageRoot } from "./findPackageRoot.js";

/** The sandbox's smart-account contracts: the ERC-1271 account, its CREATE2 factory, and the ERC-6492 deploy check. */
export interface SmartAccountContracts {
  SandboxSmartAccount: ContractArtifact;
  SandboxSmartAccountFactory: ContractArtifact;
  CounterfactualDeployCheck: ContractArtifact;
}

/** Compile `SandboxSmartAccount.sol` and `CounterfactualDeployCheck.sol` with solc 0.8.17, cached outside git like Permit2. */
export async function loadSmartAccountContracts(): Promise<SmartAccountContracts> {
  const folder = join(findPackageRoot(), "src", "legs", "evm", "contracts");
  const read = (name: string) => readFileSync(join(folder, name), "utf8");
  const artifacts = await compileSolidity({
    label: "smart-account",
    sources: {
      "SandboxSmartAccount.sol": read("SandboxSmartAccount.sol"),
      "CounterfactualDeployCheck.sol": read("CounterfactualDeployCheck.sol"),
    },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      metadata: { bytecodeHash: "none" },
      evmVersion: "london",
    },
    contracts: [
      "SandboxSmartAccount.sol:SandboxSmartAccount",
      "SandboxSmartAccount.sol:SandboxSmartAccountFactory",
      "CounterfactualDeployCheck.sol:CounterfactualDeployCheck",
    ],
  });
  return artifacts as unknown as SmartAccountContracts;
}
