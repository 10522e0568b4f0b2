import type { Core } from "../service/core.js";
import { advanceIntent } from "./advanceIntent.js";

/** A running resolver loop. */
export interface Resolver {
  /** One pass over every intent with work left; resolves when the pass is done. */
  runOnce(): Promise<void>;
  /** Stop the loop and wait for the pass in progress. Idempotent. */
  stop(): Promise<void>;
}

const BATCH = 200;
const PARALLEL = 8;

/**
 * Start the background resolver: every `intervalMs` (after the previous pass ends, so passes never overlap)
 * it advances each unfinished intent by one step, up to {@link PARALLEL} intents at a time.
 */
export function startResolver({
  core,
  intervalMs,
  stepsPerPass = 8,
}: {
  core: Core;
  intervalMs: number;
  stepsPerPass?: number;
}): Resolver {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const pass = async () => {
    const rows = await core.store.listWork(BATCH);
    let next = 0;
    const worker = async () => {
      while (!stopped && next < rows.length) {
        let row = rows[next++];
        const id = row?.id;
        try {
          // Follow one intent through as many steps as are ready now.
          for (let steps = 0; row && steps < stepsPerPass && !stopped; steps++) {
            if (!(await advanceIntent({ core, row }))) break;
            row = await core.store.getIntent(row.id);
          }
        } catch (error) {
          core.log(`resolver: intent ${id}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, rows.length) }, worker));
  };

  const runOnce = () => {
    running = running.then(pass, pass).catch((error: unknown) => {
      core.log(`resolver pass failed: ${error instanceof Error ? error.message : String(error)}`);
    });
    return running;
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      void runOnce().then(schedule);
    }, intervalMs);
  };
  schedule();

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
