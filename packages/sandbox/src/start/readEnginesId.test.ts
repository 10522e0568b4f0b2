import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { ENGINES_ID_FILE, readEnginesId } from "./readEnginesId.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "swapintent-engines-"));
  dirs.push(dir);
  return dir;
};

test("a data dir names its engines once: every later start (and a copy of the file) reads the same id", () => {
  const dir = freshDir();
  const first = readEnginesId({ dataDir: dir });
  expect(first).toMatch(/^data-dir:[0-9a-f-]{36}$/);
  expect(readEnginesId({ dataDir: dir })).toBe(first);
  expect(readFileSync(join(dir, ENGINES_ID_FILE), "utf8").trim()).toBe(first);
  expect(readEnginesId({ dataDir: freshDir() })).not.toBe(first);
});

test("engines in memory get a new id each start (they die with the process)", () => {
  const a = readEnginesId({ dataDir: undefined });
  expect(a).toMatch(/^memory:/);
  expect(readEnginesId({ dataDir: undefined })).not.toBe(a);
});

test("an empty or garbled engines-id file is refused, never replaced by a new id", () => {
  for (const text of ["", "not an id", "memory:0b5c6d1e-0000-4000-8000-000000000000"]) {
    const dir = freshDir();
    writeFileSync(join(dir, ENGINES_ID_FILE), text);
    expect(() => readEnginesId({ dataDir: dir })).toThrow(/does not name the data dir's engines/);
    expect(readFileSync(join(dir, ENGINES_ID_FILE), "utf8")).toBe(text);
  }
});
