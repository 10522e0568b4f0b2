import { inject } from "vitest";

/** Throws when test/globalSetup.ts could not build the signer packages' dist. */
export function assertSignerBuild(): void {
  const error = inject("signerBuildError");
  if (error) throw new Error(error);
}
