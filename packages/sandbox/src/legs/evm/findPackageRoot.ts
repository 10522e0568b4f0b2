import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

/**
 * The folder of the `@swapintent/sandbox` package, found by walking up from this module
 * (works from `src/legs/evm/` under vitest and from `dist/` after a build).
 */
export function findPackageRoot(): string {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string };
      if (parsed.name === "@swapintent/sandbox") {
        cached = dir;
        return dir;
      }
    }
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error("findPackageRoot: @swapintent/sandbox package.json not found above this module");
    dir = parent;
  }
}
