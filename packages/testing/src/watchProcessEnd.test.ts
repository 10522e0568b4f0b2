import { expect, test, vi } from "vitest";
import { watchProcessEnd } from "./watchProcessEnd.js";

test("a signal calls onEnd once, with its conventional exit code and a message; unwatching removes the handlers", () => {
  const listeners = {
    SIGINT: process.listenerCount("SIGINT"),
    SIGTERM: process.listenerCount("SIGTERM"),
    SIGHUP: process.listenerCount("SIGHUP"),
  };
  const onEnd = vi.fn();
  const unwatch = watchProcessEnd({ onEnd });
  try {
    // A handler is installed: the default action (the process killed, its engines left to a watchdog) no longer runs.
    expect(process.listenerCount("SIGTERM")).toBe(listeners.SIGTERM + 1);
    process.emit("SIGTERM", "SIGTERM");
    process.emit("SIGINT", "SIGINT");
    expect(onEnd.mock.calls).toEqual([
      [{ reason: "SIGTERM", exitCode: 143, message: "interrupted by SIGTERM" }],
    ]);
  } finally {
    unwatch();
  }
  expect({
    SIGINT: process.listenerCount("SIGINT"),
    SIGTERM: process.listenerCount("SIGTERM"),
    SIGHUP: process.listenerCount("SIGHUP"),
  }).toEqual(listeners);
});

test.each([
  ["SIGINT", 130],
  ["SIGHUP", 129],
] as const)("%s ends with exit code %i", (signal, exitCode) => {
  const onEnd = vi.fn();
  const unwatch = watchProcessEnd({ onEnd });
  try {
    process.emit(signal, signal);
    expect(onEnd).toHaveBeenCalledWith({ reason: signal, exitCode, message: `interrupted by ${signal}` });
  } finally {
    unwatch();
  }
});

test("a launcher that is gone ends the process, unless `watchLauncher: false` (a server left running on purpose)", () => {
  vi.useFakeTimers();
  const ppid = vi.spyOn(process, "ppid", "get").mockReturnValue(process.ppid);
  const watched = vi.fn();
  const left = vi.fn();
  const unwatch = [
    watchProcessEnd({ onEnd: watched }),
    watchProcessEnd({ onEnd: left, watchLauncher: false }),
  ];
  try {
    vi.advanceTimersByTime(1_000);
    expect(watched).not.toHaveBeenCalled();
    ppid.mockReturnValue(1); // re-parented: the launcher died without forwarding a signal
    vi.advanceTimersByTime(300);
    expect(watched).toHaveBeenCalledWith({
      reason: "launcher-exited",
      exitCode: 1,
      message: "the command that started it has exited",
    });
    expect(left).not.toHaveBeenCalled();
  } finally {
    for (const stop of unwatch) stop();
    ppid.mockRestore();
    vi.useRealTimers();
  }
});
