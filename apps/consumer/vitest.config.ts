import { defineProject, mergeConfig } from "vitest/config";
import { swapintentProject } from "../../vitest.shared";

// Packing, cold npm installs, compiler runs and sandbox runs beside each other: minutes on a busy 2-core machine.
export default mergeConfig(
  swapintentProject("consumer", { testTimeout: 600_000, hookTimeout: 900_000 }),
  defineProject({ test: { globalSetup: ["./test/globalSetup.ts"] } }),
);
