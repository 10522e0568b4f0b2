import type { TestProject } from "vitest/node";
import { buildSignerPackages } from "./buildSignerPackages.js";

declare module "vitest" {
  interface ProvidedContext {
    /** Why the signer packages' dist could not be built ("" when it was). */
    signerBuildError: string;
  }
}

/**
 * Once per run, before this project's test files: the signer packages' `dist` (what the page and the bundle report
 * use). A failed build is handed to the tests, which fail with it, instead of aborting the whole vitest run
 * (other projects still report).
 */
export default function setup(project: TestProject): void {
  try {
    buildSignerPackages();
    project.provide("signerBuildError", "");
  } catch (error) {
    project.provide(
      "signerBuildError",
      `building the signer packages failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
