import { swapintentProject } from "../../vitest.shared";

const project = swapintentProject("sandbox");
// Vitest passes ssr.resolve.conditions to its workers as `node --conditions`, where "import" applies to require()
// too: pg's CommonJS `require("pg-pool")` would then load pg-pool's ES module and fail ("Class extends value
// [object Module]"). Node adds "import" to import statements on its own, so the sandbox drops it here.
const ssrResolve = project.ssr?.resolve;
if (ssrResolve?.conditions) ssrResolve.conditions = ssrResolve.conditions.filter((c) => c !== "import");

export default project;
