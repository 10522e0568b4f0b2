/**
 * The patterns a third-party ReDoS checker (`recheck`) does not prove linear. It decides by analysing the pattern's
 * automaton, or where that does not apply by a fuzzer with a fixed seed that counts matching steps: never by the
 * clock, so its verdict is the same on any machine and under any load.
 */
import { check } from "recheck";

/** A regular expression and where the source writes it (`path/from/the/directory.ts:line`). */
export interface SourcePattern {
  where: string;
  source: string;
  flags: string;
}

/** What the checker said of a pattern that is not linear. */
export interface SuperLinearPattern extends SourcePattern {
  status: string;
  complexity?: string;
  attack?: string;
  error?: string;
}

/**
 * Every limit of the checker in steps, none in time: each of its time limits is off (by default a fuzzed attack that
 * runs over 1 s on a busy machine counts as a hang) and the recall validation, which times the real engine, is
 * skipped. Its step limits (characters its VM reads) still bound each phase.
 */
const stepsNotTime = {
  timeout: null,
  attackTimeout: null,
  incubationTimeout: null,
  seedingTimeout: null,
  recallTimeout: -1,
} as const;

/** Parameters of {@link findSuperLinearPatterns}. */
export interface FindSuperLinearPatternsParameters {
  patterns: SourcePattern[];
}

/**
 * The patterns of `patterns` that the checker does not prove linear (vulnerable, or undecided), with its attack
 * string.
 *
 * @example
 * await findSuperLinearPatterns({ patterns: [{ where: "x.ts:1", source: "^(a+)+$", flags: "" }] });
 * // [{ where: "x.ts:1", source: "^(a+)+$", flags: "", status: "vulnerable", complexity: "exponential", ... }]
 */
export async function findSuperLinearPatterns({
  patterns,
}: FindSuperLinearPatternsParameters): Promise<SuperLinearPattern[]> {
  const found: SuperLinearPattern[] = [];
  for (const pattern of patterns) {
    const diagnostics = await check(pattern.source, pattern.flags, stepsNotTime);
    if (diagnostics.status === "safe") continue;
    found.push({
      ...pattern,
      status: diagnostics.status,
      ...(diagnostics.status === "vulnerable"
        ? { complexity: diagnostics.complexity.type, attack: diagnostics.attack.pattern }
        : { error: JSON.stringify(diagnostics.error) }),
    });
  }
  return found;
}
