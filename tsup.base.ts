import { defineConfig, type Options } from "tsup";

/**
 * What every published package's build shares: ESM and CJS with declarations and source maps, ES2022, no
 * Node-only globals assumed (`platform: "neutral"`). A package's `tsup.config.ts` passes its entries and
 * whatever it does differently.
 */
export const baseOptions = {
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2022",
  platform: "neutral",
} satisfies Options;

/**
 * The tsup config of one package: {@link baseOptions} with `options` on top.
 *
 * @example
 * export default definePackageConfig({ entry: ["src/index.ts"] });
 */
export function definePackageConfig(options: Options): ReturnType<typeof defineConfig> {
  return defineConfig({ ...baseOptions, ...options });
}
