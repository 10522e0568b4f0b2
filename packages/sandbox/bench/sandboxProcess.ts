/**
 * The sandbox process the service benchmark measures: the CLI with the in-memory TEST DOUBLE legs injected (as
 * test/support/sandboxEntry.ts), plus an event-loop delay histogram (`perf_hooks.monitorEventLoopDelay`). Over the
 * IPC channel, the message `"event-loop"` answers with the histogram since the last such message (ms) and the CPU
 * time the process used meanwhile (less sensitive to a busy machine than any latency), and starts both afresh.
 * Run it with `--cpu-prof` (BENCH_CPU_PROF=<dir> in measureService.ts) to see where the long synchronous stretches are.
 */
import { createHistogram, monitorEventLoopDelay } from "node:perf_hooks";
import { runCli } from "../src/cli/runCli.js";
import { createTestLegFactory } from "../test/support/createTestLeg.js";

/** Event-loop delay over one stretch of the run, ms. */
export interface EventLoopDelay {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
  /** CPU time (user + system) the sandbox process used over the stretch, ms. */
  cpuMs: number;
  /**
   * CPU time between two ticks of a 1 ms timer, ms: how long the synchronous stretches between turns of the event
   * loop ran on the CPU. Unlike the delay, a busy machine that takes the CPU away from the process does not lengthen it.
   */
  turnCpuP99Ms: number;
  turnCpuMaxMs: number;
}

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();
let cpuSince = process.cpuUsage();

const turnCpu = createHistogram();
let lastTick = process.cpuUsage();
const tick = () => {
  const used = process.cpuUsage(lastTick);
  lastTick = process.cpuUsage();
  turnCpu.record(Math.max(1, used.user + used.system));
  setTimeout(tick, 1).unref();
};
setTimeout(tick, 1).unref();
const ms = (ns: number) => ns / 1e6;
process.on("message", (message) => {
  if (message !== "event-loop") return;
  const delay: EventLoopDelay = {
    p50Ms: ms(histogram.percentile(50)),
    p99Ms: ms(histogram.percentile(99)),
    maxMs: ms(histogram.max),
    meanMs: ms(histogram.mean),
    turnCpuP99Ms: turnCpu.percentile(99) / 1000,
    turnCpuMaxMs: turnCpu.max / 1000,
    cpuMs: (() => {
      const used = process.cpuUsage(cpuSince);
      return (used.user + used.system) / 1000;
    })(),
  };
  histogram.reset();
  turnCpu.reset();
  cpuSince = process.cpuUsage();
  process.send?.(delay);
});
// The channel must not keep the process alive after the CLI shut down.
process.channel?.unref();

await runCli({
  argv: process.argv.slice(2),
  extra: { legs: createTestLegFactory(), log: (message) => process.stderr.write(`${message}\n`) },
});
