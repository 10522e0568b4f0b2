import { definePackageConfig } from "../../tsup.base.js";

export default definePackageConfig({
  entry: ["src/index.ts"],
  // Private: its declarations are never published, so tsup's bundled ones do.
  dts: true,
  // A Node service: node builtins, and import.meta.url shimmed in the CJS output.
  platform: "node",
  shims: true,
  // The private workspace package's entries are TypeScript source: bundle them (bitcore-lib stays external).
  noExternal: ["@swapintent/testing"],
});
