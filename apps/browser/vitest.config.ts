import { swapintentProject } from "../../vitest.shared";

export default swapintentProject("browser", { testTimeout: 240_000, hookTimeout: 240_000 });
