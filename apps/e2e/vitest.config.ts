import { swapintentProject } from "../../vitest.shared";

export default swapintentProject("e2e", { testTimeout: 180_000 });
