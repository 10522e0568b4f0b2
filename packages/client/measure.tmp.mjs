import { build } from "/work/wt/client/node_modules/.pnpm/esbuild@0.27.7/node_modules/esbuild/lib/main.js";
import { gzipSync } from "node:zlib";
const r = await build({ stdin: { contents: `export { createSwapIntentClient } from "./src/index.ts";`, resolveDir: process.cwd(), loader: "ts" }, bundle: true, minify: true, format: "esm", write: false, target: "es2022", platform: "neutral" });
console.log(gzipSync(r.outputFiles[0].contents, { level: 9 }).length);
