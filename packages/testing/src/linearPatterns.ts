/**
 * Every regular expression a package's source writes runs in linear time, as a third-party ReDoS checker
 * (`recheck`: an automaton analysis where it applies, a step-counting fuzzer with a fixed seed where it does not)
 * proves it: no pattern may backtrack polynomially or exponentially on some input, whatever the input's length. The
 * checker counts matching steps, never the clock, so its answer is the same on any machine and under any load.
 *
 * The literals (`/…/u`) are read from the source with TypeScript's parser. A pattern built at run time
 * (`new RegExp(…)`) cannot be read there: each such place must be listed by the package with the pattern it builds,
 * so a new one fails the suite until someone states what it builds and the checker passes it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { findSuperLinearPatterns, type SourcePattern } from "./findSuperLinearPatterns.js";

/** What the suite needs to know of a package. */
export interface DescribeLinearPatternsParameters {
  /** The package's source folder; test, bench and declaration files in it are skipped. */
  directory: string;
  /** Each file that builds patterns at run time (`new RegExp(…)`), and the patterns it builds. */
  constructed: Record<string, RegExp[]>;
  /** Patterns the package once had that backtracked super-linearly: the checker must refuse each of them. */
  formerlySlow?: RegExp[];
  /**
   * Literals the checker finds super-linear that only ever read a text of bounded length, as `file.ts /source/flags`,
   * and what bounds it (the package tests that bound by the work it allows). Each must still be found
   * super-linear, so the list never outlives a rewrite.
   */
  boundedInput?: Record<string, string>;
}

const skipped = /\.(test|bench|test-d)\.ts$|\.d\.ts$/;

function listSourceFiles(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith(".ts") && !skipped.test(path))
    .map((path) => join(directory, path))
    .sort();
}

/** Every regular expression literal in `directory`'s source, and every place that calls `RegExp` itself. */
function listSourcePatterns({ directory }: { directory: string }): {
  literals: SourcePattern[];
  constructedAt: string[];
} {
  const literals: SourcePattern[] = [];
  const constructedAt: string[] = [];
  for (const file of listSourceFiles(directory)) {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const where = (node: ts.Node) =>
      `${relative(directory, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
    const visit = (node: ts.Node): void => {
      if (ts.isRegularExpressionLiteral(node)) {
        const end = node.text.lastIndexOf("/");
        literals.push({
          where: where(node),
          source: node.text.slice(1, end),
          flags: node.text.slice(end + 1),
        });
      } else if (
        (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === "RegExp"
      ) {
        constructedAt.push(where(node));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { literals, constructedAt };
}

/**
 * The suite: the checker refuses the package's formerly slow patterns, passes every literal of its source, and
 * passes what each listed place builds; every place that builds a pattern is listed.
 *
 * @example
 * describeLinearPatterns({
 *   directory: fileURLToPath(new URL(".", import.meta.url)),
 *   constructed: { "internal/text.ts": [UNSAFE] },
 *   formerlySlow: [/^[a-z0-9]+1[a-z0-9]+$/],
 * });
 */
export function describeLinearPatterns({
  directory,
  constructed,
  formerlySlow = [],
  boundedInput = {},
}: DescribeLinearPatternsParameters) {
  const { literals, constructedAt } = listSourcePatterns({ directory });
  const asPattern = (where: string) => (pattern: RegExp) => ({
    where,
    source: pattern.source,
    flags: pattern.flags,
  });

  describe("every regular expression of the source runs in linear time (ReDoS checker, steps not the clock)", () => {
    if (formerlySlow.length > 0)
      it("the checker refuses each pattern the package had that backtracked super-linearly", {
        timeout: 300_000,
      }, async () => {
        const slow = formerlySlow.map(asPattern("formerly"));
        const found = await findSuperLinearPatterns({ patterns: slow });
        expect(found.map((p) => `/${p.source}/${p.flags}`)).toEqual(
          slow.map((p) => `/${p.source}/${p.flags}`),
        );
        expect(found.every((p) => p.status === "vulnerable")).toBe(true);
      });

    it(`each of the ${literals.length} literals is linear, or listed with the bound on what it reads`, {
      timeout: 300_000,
    }, async () => {
      expect(literals.length).toBeGreaterThan(0);
      const found = await findSuperLinearPatterns({ patterns: literals });
      const named = (p: SourcePattern) => `${p.where.replace(/:[0-9]+$/, "")} /${p.source}/${p.flags}`;
      expect(found.filter((p) => !(named(p) in boundedInput))).toEqual([]);
      expect(found.map(named).sort()).toEqual(Object.keys(boundedInput).sort());
    });

    it("each file that builds a pattern at run time is listed, and what it builds is linear", {
      timeout: 300_000,
    }, async () => {
      const files = new Set(constructedAt.map((where) => where.replace(/:[0-9]+$/, "")));
      expect([...files].sort()).toEqual(Object.keys(constructed).sort());
      const built = Object.entries(constructed).flatMap(([where, patterns]) =>
        patterns.map(asPattern(where)),
      );
      expect(await findSuperLinearPatterns({ patterns: built })).toEqual([]);
    });
  });
}
