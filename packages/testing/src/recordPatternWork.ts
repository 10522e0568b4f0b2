/**
 * The work regular expressions do while a function runs, counted instead of timed: every `test`, `match`,
 * `matchAll`, `replace`, `search` and `split` with a pattern goes through `RegExp.prototype.exec` (the language
 * says so), which is wrapped for the run to record each pattern it is asked to match, how often, and the longest
 * text it was handed. A count is the same on any machine and under any load.
 *
 * Two bounds follow from it: a long input reaches no pattern the ReDoS checker finds super-linear (pass `patterns`
 * to `findSuperLinearPatterns`), and the number of matches stays bounded (a global replace over 4 MB of characters
 * to escape makes millions of calls, one over a cut text a thousand).
 */

/** One pattern that matched during the run. */
export interface PatternRead {
  source: string;
  flags: string;
  /** How many times `exec` ran with it (a global replace runs it once per match, plus one). */
  calls: number;
  /** The longest text it was handed. */
  longest: number;
  /** The characters its matches consumed, summed (a zero-width match consumes none, however far it looked). */
  consumed: number;
}

/** Parameters of {@link recordPatternWork}. */
export interface RecordPatternWorkParameters<T> {
  /** What to run; while a promise it returns is pending, every pattern of the process is recorded. */
  run: () => T | Promise<T>;
}

/** What {@link recordPatternWork} returns. */
export interface RecordPatternWorkReturnType<T> {
  /** What `run` returned, or what it threw. */
  outcome: { value: T } | { thrown: unknown };
  /** Every pattern that matched, in first-use order. */
  reads: PatternRead[];
  /** All `exec` calls of the run. */
  calls: number;
}

/**
 * Runs `run` and records the matching work of every regular expression it used.
 *
 * @example
 * const { reads, calls } = await recordPatternWork({ run: () => "a-b-c".replace(/-/g, "+") });
 * // reads: [{ source: "-", flags: "g", calls: 3, longest: 5, consumed: 2 }], calls: 3
 */
export async function recordPatternWork<T>({
  run,
}: RecordPatternWorkParameters<T>): Promise<RecordPatternWorkReturnType<T>> {
  const reads = new Map<string, PatternRead>();
  let calls = 0;
  const original = RegExp.prototype.exec;
  RegExp.prototype.exec = function (this: RegExp, text: string) {
    calls += 1;
    const key = `/${this.source}/${this.flags}`;
    const read = reads.get(key) ?? {
      source: this.source,
      flags: this.flags,
      calls: 0,
      longest: 0,
      consumed: 0,
    };
    read.calls += 1;
    read.longest = Math.max(read.longest, String(text).length);
    reads.set(key, read);
    const match = original.call(this, text);
    read.consumed += match?.[0].length ?? 0;
    return match;
  };
  try {
    const value = await run();
    return { outcome: { value }, reads: [...reads.values()], calls };
  } catch (thrown) {
    return { outcome: { thrown }, reads: [...reads.values()], calls };
  } finally {
    RegExp.prototype.exec = original;
  }
}
