import { swapintentProject } from "../../vitest.shared";

// No state outlives a test file here: the files share workers (see vitest.shared.ts).
export default swapintentProject("client", { isolate: false });
