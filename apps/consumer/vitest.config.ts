import { defineProject, mergeConfig } from "vitest/config";
import { swapintentProject } from "../../vitest.shared";

// Packing, a cold npm install and a sandbox run: minutes on a busy 2-core machine, not seconds.
export default mergeConfig(
  swapintentProject("consumer", { testTimeout: 300_000, hookTimeout: 600_000 }),
  defineProject({ test: { globalSetup: ["./test/globalSetup.ts"] } }),
);
