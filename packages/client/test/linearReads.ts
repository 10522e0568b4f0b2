/**
 * The work bound the client's tests put on a long input, in place of a bound on the clock: `run` is run with every
 * regular expression recorded, and each pattern that was handed more than 1024 characters must be one the ReDoS
 * checker proves linear. A backtracking pattern such as `0+$` over 100 000 zeros is found by the checker whatever
 * the machine's speed or load.
 */
import type { SuperLinearPattern } from "../../testing/src/findSuperLinearPatterns.js";
import { findSuperLinearReads } from "../../testing/src/findSuperLinearReads.js";
import { type PatternRead, recordPatternWork } from "../../testing/src/recordPatternWork.js";

/** Longer than any bounded field the client reads. */
const LONG = 1024;

/** What `run` returned, the patterns it used, and those of them that read a long text and are not linear. */
export async function readLinearly<T>(
  run: () => T | Promise<T>,
): Promise<{ value: T; reads: PatternRead[]; superLinear: SuperLinearPattern[] }> {
  const { outcome, reads } = await recordPatternWork({ run });
  if ("thrown" in outcome) throw outcome.thrown;
  return {
    value: outcome.value,
    reads,
    superLinear: await findSuperLinearReads({ reads, longerThan: LONG }),
  };
}
