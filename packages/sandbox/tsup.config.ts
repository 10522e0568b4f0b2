import { definePackageConfig } from "../../tsup.base.js";

export default definePackageConfig({
  entry: ["src/index.ts"],
  // A Node service: node builtins, and import.meta.url shimmed in the CJS output.
  platform: "node",
  shims: true,
  // The private workspace package's entries are TypeScript source: bundle them (bitcore-lib stays external).
  noExternal: ["@swapintent/testing"],
});
