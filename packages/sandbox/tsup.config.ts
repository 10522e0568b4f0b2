import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2022",
  // A Node service: node builtins, and import.meta.url shimmed in the CJS output.
  platform: "node",
  shims: true,
  // The private workspace package's entries are TypeScript source: bundle them (bitcore-lib stays external).
  noExternal: ["@swapintent/testing"],
});
