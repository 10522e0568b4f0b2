import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { openPglite } from "./openPglite.js";

const root = mkdtempSync(join(tmpdir(), "open-pglite-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** Whether any call of the `PGlite.create` spy loaded a data dir image. */
const loaded = (create: { mock: { calls: unknown[][] } }) =>
  create.mock.calls.some(
    (call) => (call[0] as { loadDataDir?: Blob } | undefined)?.loadDataDir !== undefined,
  );

describe("openPglite in a data dir", () => {
  it("a new data dir starts from the fresh-cluster image (no initdb), keeps what is written, and reopens as it is", async () => {
    // An in-memory database makes sure the image exists (this process's, or the one in the temp folder).
    await (await openPglite({ dir: undefined })).close();
    const create = vi.spyOn(PGlite, "create");
    const dir = join(root, "fresh");
    const db = await openPglite({ dir });
    const options = create.mock.calls.map((call) => call[0] as { dataDir?: string; loadDataDir?: Blob });
    expect(options.map((o) => o.dataDir)).toContain(dir);
    expect(options.every((o) => o.loadDataDir instanceof Blob)).toBe(true);
    await db.exec("CREATE TABLE kept (v integer); INSERT INTO kept VALUES (7);");
    await db.close();
    expect(readdirSync(dir)).toContain("PG_VERSION");

    create.mockClear();
    const reopened = await openPglite({ dir });
    expect(loaded(create)).toBe(false);
    expect((await reopened.query<{ v: number }>("SELECT v FROM kept")).rows).toEqual([{ v: 7 }]);
    await reopened.close();
  });

  it("a data dir that already holds files is opened as it is, never loaded over", async () => {
    const dir = join(root, "used");
    await (await openPglite({ dir })).close();
    const create = vi.spyOn(PGlite, "create");
    await (await openPglite({ dir })).close();
    expect(create).toHaveBeenCalled();
    expect(loaded(create)).toBe(false);
  });
});
