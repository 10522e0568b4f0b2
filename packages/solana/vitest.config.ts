import { swapintentProject } from "../../vitest.shared";

export default swapintentProject("solana");
