/**
 * The sandbox process the service benchmark measures: the CLI with the in-memory TEST DOUBLE legs injected (as
 * test/support/sandboxEntry.ts), plus an event-loop delay histogram (`perf_hooks.monitorEventLoopDelay`). Over the
 * IPC channel, the message `"event-loop"` answers with the histogram since the last such message (ms) and resets it.
 * Run it with `--cpu-prof` (BENCH_CPU_PROF=<dir> in measureService.ts) to see where the long synchronous stretches are.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { runCli } from "../src/cli/runCli.js";
import { createTestLegFactory } from "../test/support/createTestLeg.js";

/** Event-loop delay over one stretch of the run, ms. */
export interface EventLoopDelay {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
}

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();
const ms = (ns: number) => ns / 1e6;
process.on("message", (message) => {
  if (message !== "event-loop") return;
  const delay: EventLoopDelay = {
    p50Ms: ms(histogram.percentile(50)),
    p99Ms: ms(histogram.percentile(99)),
    maxMs: ms(histogram.max),
    meanMs: ms(histogram.mean),
  };
  histogram.reset();
  process.send?.(delay);
});
// The channel must not keep the process alive after the CLI shut down.
process.channel?.unref();

await runCli({
  argv: process.argv.slice(2),
  extra: { legs: createTestLegFactory(), log: (message) => process.stderr.write(`${message}\n`) },
});
