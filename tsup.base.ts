import { defineConfig, type Options } from "tsup";

/**
 * What every published package's build shares: ESM and CJS with source maps, ES2022, no Node-only globals assumed
 * (`platform: "neutral"`). A package's `tsup.config.ts` passes its entries and whatever it does differently.
 *
 * Declarations are not tsup's: a published package's `build` runs `tsc -p tsconfig.build.json` after it, which
 * writes one `.d.ts` and one `.d.ts.map` per source file in the source's own layout (the tarball ships `src`, so
 * go-to-definition lands in the source), and `scripts/dcts-from-dts.mjs` writes their CommonJS twins (`.d.cts`).
 */
export const baseOptions: Options = {
  format: ["esm", "cjs"],
  dts: false,
  clean: true,
  sourcemap: true,
  target: "es2022",
  platform: "neutral",
  // One copy of each module per package, in ESM and CommonJS alike: shared code (the package's error class above
  // all) goes to chunks that every entry imports. Without this, each CommonJS entry inlines its own copy, and an
  // error thrown by one entry's class fails the other entry's `instanceof` and guard.
  splitting: true,
  // CommonJS output: a lazily loaded module (permit2/tron's tronweb) is `require()`d in a promise, not `import()`ed.
  // A CommonJS runtime without a dynamic-import hook (Jest without --experimental-vm-modules compiles each file
  // with node:vm) rejects every `import()`, and a CommonJS app gets the peer's CommonJS build, the copy it has.
  esbuildOptions(options, { format }) {
    if (format === "cjs") options.supported = { ...options.supported, "dynamic-import": false };
  },
};

/**
 * The tsup config of one package: {@link baseOptions} with `options` on top.
 *
 * @example
 * export default definePackageConfig({ entry: ["src/index.ts"] });
 */
export function definePackageConfig(options: Options): ReturnType<typeof defineConfig> {
  return defineConfig({ ...baseOptions, ...options });
}
