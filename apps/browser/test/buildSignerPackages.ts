import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The packages the page imports and the bundle report measures. */
export const SIGNER_PACKAGES = [
  "@swapintent/client",
  "@swapintent/permit2",
  "@swapintent/bitcoin",
  "@swapintent/solana",
];

/**
 * Builds the published `dist` of the signer packages with turbo (answered from its cache when nothing changed,
 * as after CI's `pnpm build`), so the page and the report use what npm users get, never stale output.
 */
export function buildSignerPackages(): void {
  const repoDir = join(dirname(fileURLToPath(import.meta.url)), "../../..");
  execFileSync(
    "pnpm",
    [
      "exec",
      "turbo",
      "run",
      "build",
      "--output-logs=errors-only",
      ...SIGNER_PACKAGES.map((p) => `--filter=${p}`),
    ],
    {
      cwd: repoDir,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" },
    },
  );
}
