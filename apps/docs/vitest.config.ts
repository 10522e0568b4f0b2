import { swapintentProject } from "../../vitest.shared";

export default swapintentProject("docs", { testTimeout: 300_000, hookTimeout: 900_000 });
