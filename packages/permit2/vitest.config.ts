import { swapintentProject } from "../../vitest.shared";

export default swapintentProject("permit2");
