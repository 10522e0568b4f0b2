import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import type { SqlDatabase, SqlQueryable } from "./sqlDatabase.js";

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

/**
 * PGlite in `dir`. A new (empty) dir starts from the fresh-cluster image like an in-memory database, instead of
 * running `initdb` into it (seconds on a loaded machine); a dir that holds anything is opened as it is. When the
 * image fails to load the dir is emptied again and `initdb` runs.
 */
async function createDirDatabase(dir: string): Promise<PGlite> {
  mkdirSync(dir, { recursive: true });
  if (readdirSync(dir).length === 0) {
    freshClusterImage ??= readImage();
    const image = await freshClusterImage;
    if (image) {
      try {
        return await PGlite.create({ dataDir: dir, loadDataDir: image });
      } catch {
        freshClusterImage = undefined;
        for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true });
      }
    }
  }
  return PGlite.create({ dataDir: dir });
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

/** PGlite (or one of its transactions) as a {@link SqlQueryable}. */
function queryable(db: PGlite | Transaction): SqlQueryable {
  return {
    async query<T>(sql: string, params?: readonly unknown[]) {
      const r = await db.query<T>(sql, params as unknown[] | undefined);
      return { rows: r.rows, affectedRows: r.affectedRows ?? 0 };
    },
    async exec(sql) {
      await db.exec(sql);
    },
  };
}

/**
 * Open PGlite in `dir` (created if missing) or in memory, as a {@link SqlDatabase}. PGlite is one connection that
 * runs one statement at a time, so reads and writes share it.
 */
export async function openPglite({ dir }: { dir: string | undefined }): Promise<SqlDatabase> {
  const db = dir === undefined ? await createMemoryDatabase() : await createDirDatabase(dir);
  const own = queryable(db);
  return {
    ...own,
    read: own.query,
    transaction: (work) => db.transaction((tx) => work(queryable(tx))),
    close: () => db.close(),
  };
}
