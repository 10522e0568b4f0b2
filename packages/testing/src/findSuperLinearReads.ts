/**
 * Which of the patterns a run used read a long text and are not proven linear by the ReDoS checker: the work bound
 * a test puts on a long input, in place of a bound on the clock.
 */
import { findSuperLinearPatterns, type SuperLinearPattern } from "./findSuperLinearPatterns.js";
import type { PatternRead } from "./recordPatternWork.js";

/** Parameters of {@link findSuperLinearReads}. */
export interface FindSuperLinearReadsParameters {
  /** What `recordPatternWork` recorded. */
  reads: PatternRead[];
  /** Texts up to this length are short enough not to matter (a bounded field); longer ones are checked. */
  longerThan: number;
}

/**
 * The patterns of `reads` that were handed a text longer than `longerThan` and that the checker does not prove
 * linear.
 *
 * @example
 * const { reads } = await recordPatternWork({ run: () => parseLots({ value: `1.${"0".repeat(1e5)}`, decimals: 6 }) });
 * await findSuperLinearReads({ reads, longerThan: 1024 }); // [] when every long text met linear patterns only
 */
export async function findSuperLinearReads({
  reads,
  longerThan,
}: FindSuperLinearReadsParameters): Promise<SuperLinearPattern[]> {
  const long = reads.filter((read) => read.longest > longerThan);
  return await findSuperLinearPatterns({
    patterns: long.map(({ source, flags, longest }) => ({
      where: `a text of ${longest} characters`,
      source,
      flags,
    })),
  });
}
