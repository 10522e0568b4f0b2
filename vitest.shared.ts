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
    ssr: { resolve: { conditions: ["swapintent-source", "import", "node", "default"] } },
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
