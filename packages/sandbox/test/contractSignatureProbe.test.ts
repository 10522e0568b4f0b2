import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { compileSolidity } from "../src/legs/evm/compileSolidity.js";

it("the signer's ContractSignatureProbe creation code is what its Solidity source compiles to", async () => {
  const folder = join(import.meta.dirname, "..", "..", "permit2");
  const source = readFileSync(join(folder, "contracts", "ContractSignatureProbe.sol"), "utf8");
  const { ContractSignatureProbe: artifact } = await compileSolidity({
    label: "contract-signature-probe",
    sources: { "ContractSignatureProbe.sol": source },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      metadata: { bytecodeHash: "none" },
      evmVersion: "london",
    },
    contracts: ["ContractSignatureProbe.sol:ContractSignatureProbe"],
  });
  const shipped = readFileSync(join(folder, "src", "evm", "contractSignatureProbe.ts"), "utf8");
  expect(artifact?.bytecode.length).toBeGreaterThan(100);
  expect(shipped).toContain(`"${artifact?.bytecode}"`);
});
