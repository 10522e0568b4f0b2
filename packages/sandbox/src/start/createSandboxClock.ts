import type { Store } from "../db/createStore.js";
import type { Clock } from "../legs/types.js";

/** The sandbox clock: the base clock plus the dev offset, which is kept in the database across restarts. */
export interface SandboxClock {
  clock: Clock;
  offsetMs(): number;
  /**
   * Move the clock forward `secs`: the new offset is stored first, and only once that write succeeded does this
   * sandbox's clock move. A write that fails (the database unavailable: HTTP 503) moves nothing, so a retry moves the
   * clock once, and a restart finds what the last acknowledged advance stored. Advances run one at a time.
   */
  advance(secs: number): Promise<void>;
  /** Read the stored offset again (the resolver lock was taken again: another sandbox may have moved the clock). */
  reload(): Promise<void>;
}

/**
 * Read the stored dev offset and build the sandbox clock over `baseClock`.
 *
 * @example
 * const clock = await createSandboxClock(store, { nowMs: () => Date.now() });
 * await clock.advance(3600); // stored, then moved
 */
export async function createSandboxClock(store: Store, baseClock: Clock): Promise<SandboxClock> {
  let offsetMs = await store.loadClockOffsetMs();
  let tail: Promise<unknown> = Promise.resolve();
  /** One change of the offset at a time, in call order (two advances never both start from the same offset). */
  const serially = (work: () => Promise<void>): Promise<void> => {
    const next = tail.then(work);
    tail = next.catch(() => {});
    return next;
  };
  return {
    clock: { nowMs: () => baseClock.nowMs() + offsetMs },
    offsetMs: () => offsetMs,
    advance: (secs) =>
      serially(async () => {
        const next = offsetMs + secs * 1000;
        await store.saveClockOffsetMs(next);
        offsetMs = next;
      }),
    reload: () =>
      serially(async () => {
        offsetMs = await store.loadClockOffsetMs();
      }),
  };
}
