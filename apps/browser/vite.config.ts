import { defineConfig } from "vite";

/**
 * Deliberately plain: no Node polyfills, no `define: { global }`, no Buffer shim, and no `swapintent-source`
 * condition, so the page bundles the packages' published `dist` through their `import` export conditions.
 */
export default defineConfig({
  build: { target: "es2022", sourcemap: true, chunkSizeWarningLimit: 4096 },
});
