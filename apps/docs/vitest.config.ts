import { swapintentProject } from "../../vitest.shared";

export default swapintentProject("docs", { testTimeout: 240_000, hookTimeout: 400_000 });
