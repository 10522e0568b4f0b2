import type { Store } from "../db/createStore.js";
import type { Clock } from "../legs/types.js";

/** The sandbox clock: the base clock plus the dev offset, which is kept in the database across restarts. */
export interface SandboxClock {
  clock: Clock;
  offsetMs(): number;
  /** Move the clock forward `secs` and store the new offset. */
  advance(secs: number): Promise<void>;
}

/** Read the stored dev offset and build the sandbox clock over `baseClock`. */
export async function createSandboxClock(store: Store, baseClock: Clock): Promise<SandboxClock> {
  let offsetMs = await store.loadClockOffsetMs();
  return {
    clock: { nowMs: () => baseClock.nowMs() + offsetMs },
    offsetMs: () => offsetMs,
    async advance(secs) {
      offsetMs += secs * 1000;
      await store.saveClockOffsetMs(offsetMs);
    },
  };
}
