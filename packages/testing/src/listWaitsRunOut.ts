/** Parameters of {@link listWaitsRunOut}. */
export interface ListWaitsRunOutParameters {
  /** What to run; every `setTimeout` of the process is watched until its promise settles. */
  run: () => Promise<unknown>;
  /** Only the timers set from a file whose path contains this (`acquireResolverLock.ts`); all when absent. */
  setIn?: string;
}

/**
 * The waits that ran to their end while `run` ran: the delay of every `setTimeout` that fired, in the order they
 * fired. The clock stays real (engines, databases and sockets need it), but what ended a wait is read instead of
 * timed: a 2 s bound that ran out, or a 10 s timeout that should not have, is the same list on any machine.
 *
 * @example
 * const waits = await listWaitsRunOut({ run: () => sandbox.close() });
 * waits.filter((ms) => ms > 1_000); // [2000]: the save bound ended the stop, not the RPC client's 10 s timeout
 */
export async function listWaitsRunOut({ run, setIn }: ListWaitsRunOutParameters): Promise<number[]> {
  const ranOut: number[] = [];
  const original = globalThis.setTimeout;
  globalThis.setTimeout = ((handler: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const counted = setIn === undefined || (new Error().stack ?? "").includes(setIn);
    if (!counted || typeof handler !== "function") return original(handler, ms, ...args);
    return original(
      (...given: unknown[]) => {
        ranOut.push(ms ?? 0);
        handler(...given);
      },
      ms,
      ...args,
    );
  }) as typeof setTimeout;
  try {
    await run();
  } finally {
    globalThis.setTimeout = original;
  }
  return ranOut;
}
