import { defineProject, mergeConfig } from "vitest/config";
import { swapintentProject } from "../../vitest.shared";

export default mergeConfig(
  swapintentProject("browser", { testTimeout: 240_000, hookTimeout: 240_000 }),
  defineProject({ test: { globalSetup: ["./test/globalSetup.ts"] } }),
);
