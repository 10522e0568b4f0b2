/**
 * The README's usage snippets are the files in apps/e2e/examples (typechecked with this app): this test fails
 * when the README shows code that differs from them, and checks the two commands at the top stay as documented.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ESM script without types
import { embedExamples } from "../../../scripts/sync-readme.mjs";

const readme = readFileSync(fileURLToPath(new URL("../../../README.md", import.meta.url)), "utf8");

describe("README", () => {
  it("embeds every example file verbatim", () => {
    const markers = [...readme.matchAll(/<!-- embed: (\S+) -->/g)].map((m) => m[1]);
    expect(markers.length).toBeGreaterThanOrEqual(1);
    expect((embedExamples as (text: string) => string)(readme)).toBe(readme);
  });

  it("starts with the set-up-and-demo command and the test command", () => {
    const firstBlock = /```sh\n([\s\S]*?)\n```/.exec(readme)?.[1] ?? "";
    const commands = firstBlock.split("\n").map((line) => line.replace(/\s+#.*$/, "").trim());
    expect(commands[0]).toBe("npm install -g pnpm@10.34.9 && pnpm install && pnpm demo");
    expect(commands[1]).toBe("pnpm test");
    const rootPackage = JSON.parse(
      readFileSync(fileURLToPath(new URL("../../../package.json", import.meta.url)), "utf8"),
    );
    // pnpm runs the demo's own process (exec: no shell, no nested pnpm, no tsx CLI between), so a signal to pnpm reaches it.
    expect(rootPackage.scripts.demo).toBe(
      "exec node --import tsx --conditions=swapintent-source apps/e2e/src/cli.ts",
    );
    expect(rootPackage.scripts.test).toBe("vitest run");
  });
});
