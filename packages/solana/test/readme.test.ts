/**
 * The README's example is a typechecked file of apps/e2e/examples, embedded verbatim
 * (the same `<!-- embed: path -->` rule as the root README, checked with the same script).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
// @ts-expect-error: a plain ESM script without types
import { embedExamples } from "../../../scripts/sync-readme.mjs";

it("the README embeds its example verbatim", () => {
  const readme = readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");
  const markers = [...readme.matchAll(/<!-- embed: (\S+) -->/g)].map((m) => m[1]);
  expect(markers).toEqual(["apps/e2e/examples/solana.ts"]);
  expect((embedExamples as (text: string) => string)(readme)).toBe(readme);
});
