import { mkdirSync, readFileSync } from "node:fs";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { MIGRATIONS, type Migration } from "./migrations.js";

/**
 * A fresh cluster (`initdb`) costs seconds. In-memory databases start from an image of a fresh cluster instead:
 * kept in this process and in the OS temp folder (4.5 MB gzip tar, keyed by the PGlite version), so later
 * processes skip `initdb` too. A missing, unreadable or corrupt image just means a fresh `initdb`.
 */
let freshClusterImage: Promise<File | undefined> | undefined;

function imagePath(): string {
  const require = createRequire(import.meta.url);
  let version = "unknown";
  try {
    const main = require.resolve("@electric-sql/pglite");
    const pkg = JSON.parse(readFileSync(join(dirname(main), "..", "package.json"), "utf8")) as {
      version?: string;
    };
    version = pkg.version ?? version;
  } catch {
    // keep "unknown": the image is still checked by loading it
  }
  return join(tmpdir(), `swapintent-sandbox-pglite-${version}-fresh-cluster.tar.gz`);
}

async function readImage(): Promise<File | undefined> {
  try {
    return new File([await readFile(imagePath())], "fresh-cluster.tar.gz", { type: "application/x-gzip" });
  } catch {
    return undefined;
  }
}

async function writeImage(image: Blob): Promise<void> {
  const path = imagePath();
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeFile(tmp, Buffer.from(await image.arrayBuffer()));
    await rename(tmp, path);
  } catch {
    await rm(tmp, { force: true }).catch(() => {});
  }
}

async function createMemoryDatabase(): Promise<PGlite> {
  freshClusterImage ??= readImage();
  const image = await freshClusterImage;
  if (image) {
    try {
      return await PGlite.create({ loadDataDir: image });
    } catch {
      freshClusterImage = undefined;
    }
  }
  const db = await PGlite.create();
  const dumped = (await db.dumpDataDir("gzip")) as Blob;
  const file = new File([dumped], "fresh-cluster.tar.gz", { type: "application/x-gzip" });
  freshClusterImage = Promise.resolve(file);
  await writeImage(file);
  return db;
}

/**
 * Open the sandbox database: PGlite in `dir` (created if missing) or in memory, then apply the migrations
 * not yet applied, each in its own transaction, recorded in `schema_migrations`.
 */
export async function openDatabase({
  dir,
  migrations = MIGRATIONS,
}: {
  dir: string | undefined;
  migrations?: readonly Migration[];
}): Promise<PGlite> {
  let db: PGlite;
  if (dir === undefined) db = await createMemoryDatabase();
  else {
    mkdirSync(dir, { recursive: true });
    db = await PGlite.create({ dataDir: dir });
  }
  await db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())",
  );
  const applied = await db.query<{ version: number }>("SELECT version FROM schema_migrations");
  const done = new Set(applied.rows.map((row) => row.version));
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (done.has(migration.version)) continue;
    await db.transaction(async (tx) => {
      await tx.exec(migration.sql);
      await tx.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [
        migration.version,
        migration.name,
      ]);
    });
  }
  return db;
}
