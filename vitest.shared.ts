import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

const repoDir = dirname(fileURLToPath(import.meta.url));

/**
 * The tsconfig of a project's type tests: `tsconfig.typetests.json` (the `*.test-d.ts` files and what they import)
 * where the project has one, else its `tsconfig.json`. Vitest runs these tsc programs after every other file, so a
 * program over the whole package (its hundreds of unit tests, which `pnpm typecheck` checks) made the run's tail:
 * the sandbox's took 21 s of CPU for its one type test file, 3 s now.
 */
function typeTestsTsconfig(name: string): string {
  const own = ["packages", "apps"].some((folder) =>
    existsSync(join(repoDir, folder, name, "tsconfig.typetests.json")),
  );
  return own ? "./tsconfig.typetests.json" : "./tsconfig.json";
}

/**
 * Throws when a test file of a project whose files share workers (`isolate: false`) mocks a module: the mock would
 * outlive its file and reach the next files the worker runs (vitest resets module mocks between files only when it
 * isolates them). Such a project keeps `isolate: true`, or the file moves to one that does.
 */
function assertNoModuleMocks(name: string): void {
  const dir = ["packages", "apps"].map((folder) => join(repoDir, folder, name)).find((d) => existsSync(d));
  if (!dir) return;
  for (const sub of ["src", "test"]) {
    if (!existsSync(join(dir, sub))) continue;
    for (const file of readdirSync(join(dir, sub), { recursive: true, encoding: "utf8" })) {
      if (!/\.test\.ts$/.test(file)) continue;
      if (/\bvi\.(mock|doMock)\(/.test(readFileSync(join(dir, sub, file), "utf8")))
        throw new Error(
          `${name}/${sub}/${file} mocks a module, but the ${name} project shares workers between files (isolate: false in its vitest.config.ts): the mock would reach the files run after it. Keep isolate on for ${name}.`,
        );
    }
  }
}

/**
 * Shared per-package vitest settings. Workspace packages resolve to their TypeScript sources through
 * the `swapintent-source` export condition, so tests never depend on a stale `dist`.
 */
export function swapintentProject(
  name: string,
  overrides: { testTimeout?: number; hookTimeout?: number; isolate?: boolean } = {},
) {
  if (overrides.isolate === false) assertNoModuleMocks(name);
  return defineProject({
    resolve: { conditions: ["swapintent-source", "module", "import", "node", "default"] },
    // No "import" here: vitest passes these to its workers as `node --conditions`, where "import" applies to
    // require() too, and a CommonJS package such as pg would then require() an ES module ("Class extends value
    // [object Module]"). Node adds "import" to import statements on its own.
    ssr: { resolve: { conditions: ["swapintent-source", "node", "default"] } },
    test: {
      name,
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      // Type tests (`*.test-d.ts`): checked by tsc through vitest, counted with the other tests.
      typecheck: {
        enabled: true,
        include: ["src/**/*.test-d.ts", "test/**/*.test-d.ts"],
        tsconfig: typeTestsTsconfig(name),
      },
      // A fresh worker per file (vitest's default) costs every unit test file a Node start and a fresh import of viem,
      // noble and the package: bitcoin's 57 files took 55 s of CPU so, 18 s in reused workers. A project whose files
      // leave no state behind (every polluted prototype and environment variable restored, no module mocked) passes
      // `isolate: false` (checked: no file of it mocks a module); one that mocks a module (permit2's tronweb, solana's
      // byte readers in slowInput.test.ts) keeps the default.
      isolate: overrides.isolate ?? true,
      testTimeout: overrides.testTimeout ?? 20_000,
      hookTimeout: overrides.hookTimeout ?? 120_000,
    },
  });
}
