import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { LongestFirstSequencer } from "./vitest.sequencer";

export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*"],
    // Vitest's default in a run is one worker per core minus one: on a 2-core machine every test file ran after the
    // other. Most of the long files wait on child processes (installs, compilers, anvil, PostgreSQL, the browser),
    // so one worker more than there are cores keeps both cores busy.
    maxWorkers: availableParallelism() + 1,
    // The longest files first, across projects (vitest's own order runs the projects one after another).
    sequence: { sequencer: LongestFirstSequencer },
  },
});
