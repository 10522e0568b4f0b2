import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { type PackedPackage, PUBLISHED, packPublished, repoDir } from "./project.js";

declare module "vitest" {
  interface ProvidedContext {
    /** The four tarballs, packed once for every test file of this project. */
    packed: PackedPackage[];
    /** Why building or packing failed ("" when it did not): each test that needs the tarballs fails with it. */
    packError: string;
    /** This run's id: in CI, a consumer project installed in this run (by any test file) is shared, no other. */
    consumerRunId: string;
  }
}

/**
 * Once per run, before this project's test files: builds the publishable packages (turbo, cached) and packs each
 * once, so the files that install the tarballs (each into its own projects) run side by side on one set.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const packDir = await mkdtemp(join(tmpdir(), "swapintent-pack-"));
  project.provide("consumerRunId", `${Date.now()}-${process.pid}`);
  try {
    // Each dist from scratch: a build cache restores its outputs on top of what is there, so the declarations of a
    // renamed source would stay behind (and the packages' prepack refuses to pack them).
    for (const folder of PUBLISHED)
      await rm(join(repoDir, "packages", folder, "dist"), { recursive: true, force: true });
    project.provide("packed", await packPublished(packDir));
    project.provide("packError", "");
  } catch (error) {
    project.provide("packed", []);
    project.provide(
      "packError",
      `building or packing failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return async () => {
    await rm(packDir, { recursive: true, force: true });
  };
}
