import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { mkdir, readFile, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { createBrotliDecompress } from "node:zlib";
import { type Browser, chromium } from "playwright-core";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Flags for a headless Chromium in CI: no sandbox (containers run as root), no GPU, nothing that phones home. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--no-zygote",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];

/**
 * The headless Chromium that `@sparticuz/chromium` ships inside its npm tarball (`bin/chromium.br`), unpacked once
 * into `apps/browser/node_modules/.cache/chromium-<version>/chromium` (about 210 MB, 1.3-1.8 s on 2 cores).
 *
 * We unpack it ourselves instead of calling the package's `executablePath()`: that one writes straight to
 * `$TMPDIR/chromium`, reuses whatever file is there (another version, or one half-written by a run that was killed)
 * and drops swiftshader's libraries into `$TMPDIR` itself. Here the cache path carries the package version and the
 * binary appears only by an atomic rename once it is complete, so two runs at once or a killed run never leave a
 * broken browser behind.
 *
 * Throws when the package is not installed or the archive cannot be unpacked: the caller fails, it never skips.
 */
export async function chromiumExecutablePath(): Promise<string> {
  const require = createRequire(join(appDir, "package.json"));
  // The package exports only its entry (build/index.js); the archives sit beside it in ../bin.
  const packageDir = join(dirname(require.resolve("@sparticuz/chromium")), "..");
  const { version } = JSON.parse(await readFile(join(packageDir, "package.json"), "utf8")) as {
    version: string;
  };
  const target = join(appDir, "node_modules", ".cache", `chromium-${version}`, "chromium");
  if (existsSync(target)) return target;
  await mkdir(dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}.partial`;
  try {
    await pipeline(
      createReadStream(join(packageDir, "bin", "chromium.br")),
      createBrotliDecompress({ chunkSize: 2 ** 21 }),
      createWriteStream(partial, { mode: 0o755 }),
    );
    await rename(partial, target);
  } finally {
    await rm(partial, { force: true });
  }
  return target;
}

/**
 * Launches a headless Chromium through playwright-core: by default the npm one ({@link chromiumExecutablePath}).
 * Rejects when it cannot start.
 */
export async function launchChromium(
  parameters: { executablePath?: string | undefined } = {},
): Promise<Browser> {
  const executablePath = parameters.executablePath ?? (await chromiumExecutablePath());
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}
