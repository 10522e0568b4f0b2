import { vi } from "vitest";

/**
 * The call's outcome (`{ value }`, or the error's `code`, or the error itself when it has none) once the fake clock
 * has moved `ms` further, or `"still pending"`. The clock is fake (`vi.useFakeTimers()` first), so the question is
 * whether the call ends when its own timer or the caller's abort says so, not how fast the machine is.
 */
export async function settleAfter(promise: Promise<unknown>, ms: number): Promise<unknown> {
  let outcome: unknown = "still pending";
  void promise.then(
    (value) => {
      outcome = { value };
    },
    (error: unknown) => {
      outcome = (error as { code?: unknown } | null)?.code ?? error;
    },
  );
  await vi.advanceTimersByTimeAsync(ms);
  return outcome;
}
