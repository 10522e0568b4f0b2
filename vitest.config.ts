import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*"],
    // Vitest's default in a run is one worker per core minus one: on a 2-core machine every test file ran after the
    // other. Most of the long files wait on child processes (installs, compilers, anvil, PostgreSQL, the browser),
    // so one worker more than there are cores keeps both cores busy.
    maxWorkers: availableParallelism() + 1,
  },
});
