/** Why a command-line process is asked to end: a signal, or the process that launched it is gone. */
export type ProcessEndReason = "SIGINT" | "SIGTERM" | "SIGHUP" | "launcher-exited";

/** Parameters of {@link watchProcessEnd}. */
export interface WatchProcessEndParameters {
  /** Called once, on the first reason to end; it should clean up (close servers, stop engines) and exit. */
  onEnd: (parameters: {
    reason: ProcessEndReason;
    /** The conventional exit code: 128 + the signal's number, 1 when the launcher is gone. */
    exitCode: number;
    /** Why, in words, for one line on stderr. */
    message: string;
  }) => void;
  /** How often the launcher is checked, in milliseconds (default 250). */
  intervalMs?: number;
  /**
   * Whether the death of the launcher ends the process too (default `true`). A long-lived server started directly
   * (`node cli.js &`, a service manager) is left running on purpose when its shell exits: pass `false` there.
   */
  watchLauncher?: boolean;
}

const SIGNAL_EXIT_CODES = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;

/**
 * Ends a command-line tool with whatever started it. A signal (Ctrl-C, `kill`, a CI timeout) calls `onEnd` instead of
 * killing the process outright, so it can stop its child engines; and when the launcher (`pnpm`, a shell, a CI step)
 * dies without forwarding a signal (SIGKILL, a crash) this process is re-parented, which is detected by polling the
 * parent pid, and `onEnd` is called too. Without this a killed `pnpm demo` left the demo and its anvils running.
 * The timer is unref'd: it never keeps the process alive. Returns a function that stops watching.
 */
export function watchProcessEnd({
  onEnd,
  intervalMs = 250,
  watchLauncher = true,
}: WatchProcessEndParameters): () => void {
  const launcher = process.ppid;
  let ended = false;
  const end = (reason: ProcessEndReason) => {
    if (ended) return;
    ended = true;
    onEnd(
      reason === "launcher-exited"
        ? { reason, exitCode: 1, message: "the command that started it has exited" }
        : { reason, exitCode: SIGNAL_EXIT_CODES[reason], message: `interrupted by ${reason}` },
    );
  };
  const handlers = (Object.keys(SIGNAL_EXIT_CODES) as (keyof typeof SIGNAL_EXIT_CODES)[]).map(
    (signal) => [signal, () => end(signal)] as const,
  );
  for (const [signal, handler] of handlers) process.on(signal, handler);
  const timer = watchLauncher
    ? setInterval(() => {
        if (process.ppid !== launcher) end("launcher-exited");
      }, intervalMs).unref()
    : undefined;
  return () => {
    clearInterval(timer);
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
}
