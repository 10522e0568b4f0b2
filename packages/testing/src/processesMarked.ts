import { readdirSync, readFileSync } from "node:fs";

/**
 * Pids of the live processes whose environment carries `mark` (a `NAME=value` a test put in the environment of the
 * process it started, so every descendant — pnpm, tsx, node, anvil, solc — inherits it). Linux only: reads `/proc`.
 * Used by the tests that prove nothing is left running after a command-line process ends.
 */
export function processesMarked(mark: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, "latin1").includes(mark)) pids.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}
