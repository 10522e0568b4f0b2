/**
 * The example of packages/permit2/README.md is a file in apps/e2e/examples (typechecked with this app, and run
 * against the sandbox by examples-permit2.test.ts): this test fails when that README shows code
 * that differs from them. `node -e` with scripts/sync-readme.mjs's embedExamples rewrites the blocks.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ESM script without types
import { embedExamples } from "../../../scripts/sync-readme.mjs";

const readme = readFileSync(
  fileURLToPath(new URL("../../../packages/permit2/README.md", import.meta.url)),
  "utf8",
);

describe("packages/permit2/README.md", () => {
  it("embeds the EVM example verbatim", () => {
    const markers = [...readme.matchAll(/<!-- embed: (\S+) -->/g)].map((m) => m[1]);
    expect(markers).toEqual(["apps/e2e/examples/permit2-evm.ts"]);
    expect((embedExamples as (text: string) => string)(readme)).toBe(readme);
  });
});
