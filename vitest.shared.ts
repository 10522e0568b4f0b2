import { defineProject } from "vitest/config";

/**
 * Shared per-package vitest settings. Workspace packages resolve to their TypeScript sources through
 * the `swapintent-source` export condition, so tests never depend on a stale `dist`.
 */
export function swapintentProject(
  name: string,
  overrides: { testTimeout?: number; hookTimeout?: number } = {},
) {
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
        tsconfig: "./tsconfig.json",
      },
      testTimeout: overrides.testTimeout ?? 20_000,
      hookTimeout: overrides.hookTimeout ?? 120_000,
    },
  });
}
