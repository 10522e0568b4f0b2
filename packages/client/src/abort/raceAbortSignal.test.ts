/**
 * The abort race every signer package uses (permit2, solana, bitcoin), run against Node's own `AbortController`,
 * `AbortSignal.timeout` and `EventTarget` (not ours), and against signals built to misbehave.
 */
import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isAbortSignalLike } from "./isAbortSignalLike.js";
import { raceAbortSignal } from "./raceAbortSignal.js";
import { readAbortSignal } from "./readAbortSignal.js";

/** What the race's callback was told, as the error it rejects with. */
class Aborted extends Error {
  constructor(
    readonly reason: unknown,
    readonly asked: boolean,
  ) {
    super("aborted");
  }
}
const abortError = ({ reason, asked }: { reason: unknown; asked: boolean }) => new Aborted(reason, asked);

/** A wallet question that waits until the test answers or fails it; `calls` counts how often it was asked. */
function hangingWallet<T>() {
  const calls = { count: 0 };
  let answer: (value: T) => void = () => {};
  let fail: (error: unknown) => void = () => {};
  const run = () => {
    calls.count++;
    return new Promise<T>((resolve, reject) => {
      answer = resolve;
      fail = reject;
    });
  };
  return { run, calls, answer: (value: T) => answer(value), fail: (error: unknown) => fail(error) };
}

/** How the race ended: `{ value }`, or `{ aborted: { reason, asked } }`, or `{ thrown }`. */
async function outcome(race: Promise<unknown>) {
  try {
    return { value: await race };
  } catch (error) {
    if (error instanceof Aborted) return { aborted: { reason: error.reason, asked: error.asked } };
    return { thrown: error };
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on("unhandledRejection", onUnhandled);
});
afterEach(() => {
  process.off("unhandledRejection", onUnhandled);
});

describe("raceAbortSignal with Node's AbortController", () => {
  it("without a signal: run is called at once, its answer returned, its synchronous throw a rejection", async () => {
    let called = false;
    const run = () => {
      called = true;
      return 7;
    };
    const race = raceAbortSignal({ signal: undefined, run, abortError });
    expect(called).toBe(true);
    expect(await outcome(race)).toEqual({ value: 7 });
    const thrown = new Error("wallet crashed");
    const failing = raceAbortSignal({
      signal: undefined,
      run: () => {
        throw thrown;
      },
      abortError,
    });
    expect(await outcome(failing)).toEqual({ thrown });
  });

  it("a live signal changes nothing: the answer is returned and the listener removed", async () => {
    const controller = new AbortController();
    const wallet = hangingWallet<string>();
    const race = raceAbortSignal({ signal: controller.signal, run: wallet.run, abortError });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    wallet.answer("signed");
    expect(await outcome(race)).toEqual({ value: "signed" });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("an abort while the wallet is asked rejects at once (asked: true, the reason), late answers are never used", async () => {
    for (const late of ["answer", "fail"] as const) {
      const controller = new AbortController();
      const wallet = hangingWallet<string>();
      const race = raceAbortSignal({ signal: controller.signal, run: wallet.run, abortError });
      const reason = { why: "user left" };
      controller.abort(reason);
      expect(await outcome(race), late).toEqual({ aborted: { reason, asked: true } });
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
      if (late === "answer") wallet.answer("signed");
      else wallet.fail(new Error("wallet closed"));
      await tick();
    }
    expect(unhandled).toEqual([]);
  });

  it("an already aborted signal: asked false, run never called, no listener left", async () => {
    const reason = new Error("gone");
    const signal = AbortSignal.abort(reason);
    const wallet = hangingWallet<string>();
    expect(await outcome(raceAbortSignal({ signal, run: wallet.run, abortError }))).toEqual({
      aborted: { reason, asked: false },
    });
    expect(wallet.calls.count).toBe(0);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("AbortSignal.timeout composes as a per-question timeout (TimeoutError as the reason)", async () => {
    const wallet = hangingWallet<string>();
    const result = await outcome(
      raceAbortSignal({ signal: AbortSignal.timeout(10), run: wallet.run, abortError }),
    );
    expect(result).toEqual({ aborted: { reason: expect.any(DOMException), asked: true } });
    expect((result.aborted as { reason: DOMException }).reason.name).toBe("TimeoutError");
  });

  it("a wallet that aborts the signal itself, then answers or throws: the abort, never the answer", async () => {
    for (const then of ["answers", "throws", "rejects"] as const) {
      const controller = new AbortController();
      const race = raceAbortSignal({
        signal: controller.signal,
        run: () => {
          controller.abort("re-entrant");
          if (then === "throws") throw new Error("crash");
          return then === "answers" ? "signed" : Promise.reject(new Error("crash"));
        },
        abortError,
      });
      expect(await outcome(race), then).toEqual({ aborted: { reason: "re-entrant", asked: true } });
    }
    await tick();
    expect(unhandled).toEqual([]);
  });

  it("one long-lived signal: 50 races collect no listener, and one abort ends 10 waiting races", async () => {
    const controller = new AbortController();
    for (let i = 0; i < 50; i++)
      await raceAbortSignal({ signal: controller.signal, run: () => Promise.resolve(i), abortError });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    const waiting = Array.from({ length: 10 }, () =>
      raceAbortSignal({ signal: controller.signal, run: hangingWallet<number>().run, abortError }),
    );
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(10);
    controller.abort("all");
    for (const race of waiting)
      expect(await outcome(race)).toEqual({ aborted: { reason: "all", asked: true } });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});

describe("raceAbortSignal against signals built to misbehave", () => {
  const thrown = new Error("hostile signal");

  /** An EventTarget-based signal; `aborted` answers `readAborted()`, `listen` runs after a listener is added. */
  function signalOf(options: {
    readAborted?: () => boolean;
    reason?: unknown;
    listen?: (s: EventTarget) => void;
  }) {
    class Hostile extends EventTarget {
      get aborted() {
        return options.readAborted?.() ?? false;
      }
      get reason() {
        return options.reason;
      }
      override addEventListener(type: string, listener: EventListenerOrEventListenerObject | null) {
        super.addEventListener(type, listener);
        options.listen?.(this);
      }
    }
    return new Hostile() as unknown as AbortSignal;
  }

  const neverAsked: [string, () => AbortSignal, unknown][] = [
    [
      "its aborted getter throws",
      () =>
        signalOf({
          readAborted: () => {
            throw thrown;
          },
        }),
      thrown,
    ],
    [
      "its addEventListener throws",
      () =>
        signalOf({
          listen: () => {
            throw thrown;
          },
        }),
      thrown,
    ],
    [
      "it fires abort while the listener is added, still reading as not aborted",
      () => signalOf({ listen: (s) => s.dispatchEvent(new Event("abort")) }),
      undefined,
    ],
    [
      "it reads as aborted once it is listened to (no event)",
      () => {
        let listened = false;
        return signalOf({ readAborted: () => listened, reason: "late", listen: () => (listened = true) });
      },
      "late",
    ],
    [
      "its aborted answers a truthy non-boolean",
      () => signalOf({ readAborted: () => 1 as never, reason: "one" }),
      "one",
    ],
  ];
  for (const [what, make, reason] of neverAsked) {
    it(`${what}: rejects with asked false, run never called`, async () => {
      const wallet = hangingWallet<string>();
      expect(await outcome(raceAbortSignal({ signal: make(), run: wallet.run, abortError }))).toEqual({
        aborted: { reason, asked: false },
      });
      expect(wallet.calls.count).toBe(0);
    });
  }

  it("a signal that reads as aborted (no event) when the wallet answers, fails or throws: the abort wins", async () => {
    for (const then of ["answers", "rejects", "throws"] as const) {
      let aborted = false;
      const signal = signalOf({ readAborted: () => aborted, reason: "silent" });
      const race = raceAbortSignal({
        signal,
        run: () => {
          aborted = true;
          if (then === "throws") throw new Error("crash");
          return then === "answers" ? Promise.resolve("signed") : Promise.reject(new Error("crash"));
        },
        abortError,
      });
      expect(await outcome(race), then).toEqual({ aborted: { reason: "silent", asked: true } });
    }
  });

  it("an abort event without an aborted read: the abort, reason undefined", async () => {
    let fire = () => {};
    const signal = signalOf({ listen: (s) => (fire = () => s.dispatchEvent(new Event("abort"))) });
    const race = raceAbortSignal({ signal, run: hangingWallet<string>().run, abortError });
    fire();
    expect(await outcome(race)).toEqual({ aborted: { reason: undefined, asked: true } });
  });

  it("a signal whose removeEventListener throws still settles, with the answer or the abort", async () => {
    const broken = () =>
      Object.defineProperty(new AbortController().signal, "removeEventListener", {
        value: () => {
          throw thrown;
        },
      });
    expect(await outcome(raceAbortSignal({ signal: broken(), run: () => "signed", abortError }))).toEqual({
      value: "signed",
    });
    const controller = new AbortController();
    Object.defineProperty(controller.signal, "removeEventListener", {
      value: () => {
        throw thrown;
      },
    });
    const race = raceAbortSignal({ signal: controller.signal, run: hangingWallet<string>().run, abortError });
    controller.abort("bye");
    expect(await outcome(race)).toEqual({ aborted: { reason: "bye", asked: true } });
  });

  it("an abortError callback that throws rejects the race with its throw (never hangs, never escapes the event)", async () => {
    const controller = new AbortController();
    const bug = new Error("callback bug");
    const race = raceAbortSignal({
      signal: controller.signal,
      run: hangingWallet<string>().run,
      abortError: () => {
        throw bug;
      },
    });
    controller.abort();
    expect(await outcome(race)).toEqual({ thrown: bug });
  });
});

describe("readAbortSignal and isAbortSignalLike", () => {
  it("readAbortSignal: undefined and a live signal are not aborted; an aborted one carries its reason", () => {
    expect(readAbortSignal({ signal: undefined })).toEqual({ aborted: false });
    expect(readAbortSignal({ signal: new AbortController().signal })).toEqual({ aborted: false });
    expect(readAbortSignal({ signal: AbortSignal.abort("r") })).toEqual({ aborted: true, reason: "r" });
  });

  it("readAbortSignal: an aborted or reason getter that throws counts as aborted, the throw as reason", () => {
    const thrown = new Error("getter");
    const throwing = (key: "aborted" | "reason") =>
      Object.defineProperty(AbortSignal.abort("r"), key, {
        get() {
          throw thrown;
        },
      });
    expect(readAbortSignal({ signal: throwing("aborted") })).toEqual({ aborted: true, reason: thrown });
    expect(readAbortSignal({ signal: throwing("reason") })).toEqual({ aborted: true, reason: thrown });
  });

  it("isAbortSignalLike: a real signal and any EventTarget pass; what cannot be listened to does not", () => {
    expect(isAbortSignalLike({ signal: new AbortController().signal })).toBe(true);
    expect(isAbortSignalLike({ signal: new EventTarget() })).toBe(true);
    const getterThrows = Object.defineProperty({}, "addEventListener", {
      get() {
        throw new Error("getter");
      },
    });
    const notSignals = [
      undefined,
      null,
      "abort",
      1,
      {},
      { aborted: false },
      { addEventListener() {} },
      getterThrows,
    ];
    for (const signal of notSignals) expect(isAbortSignalLike({ signal }), String(signal)).toBe(false);
  });
});

describe("raceAbortSignal against hostile wallets and callbacks", () => {
  const thrown = new Error("hostile");

  it("a thenable that calls back twice, or both ways, settles once with its first answer; no listener left", async () => {
    const controller = new AbortController();
    const twice = {
      // biome-ignore lint/suspicious/noThenProperty: the hostile thenable under test
      then(resolve: (value: string) => void, reject: (error: unknown) => void) {
        resolve("first");
        resolve("second");
        reject(thrown);
      },
    };
    const race = raceAbortSignal({
      signal: controller.signal,
      run: () => twice as unknown as Promise<string>,
      abortError,
    });
    expect(await outcome(race)).toEqual({ value: "first" });
    const late = {
      // biome-ignore lint/suspicious/noThenProperty: the hostile thenable under test
      then(_: unknown, reject: (error: unknown) => void) {
        reject(thrown);
        setTimeout(() => reject(new Error("late")), 0);
      },
    };
    expect(
      await outcome(raceAbortSignal({ signal: controller.signal, run: () => late as never, abortError })),
    ).toEqual({ thrown });
    await tick();
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    expect(unhandled).toEqual([]);
  });

  it("a thenable whose then getter or then call throws is the wallet's failure, not a hang or an escape", async () => {
    const controller = new AbortController();
    // biome-ignore lint/suspicious/noThenProperty: the hostile thenable under test
    const getter = Object.defineProperty({}, "then", {
      get() {
        throw thrown;
      },
    });
    const call = {
      // biome-ignore lint/suspicious/noThenProperty: the hostile thenable under test
      then() {
        throw thrown;
      },
    };
    for (const answer of [getter, call])
      expect(
        await outcome(raceAbortSignal({ signal: controller.signal, run: () => answer as never, abortError })),
      ).toEqual({
        thrown,
      });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("a wallet that throws synchronously with a live signal: its throw, and the listener removed", async () => {
    const controller = new AbortController();
    const race = raceAbortSignal({
      signal: controller.signal,
      run: () => {
        throw thrown;
      },
      abortError,
    });
    expect(await outcome(race)).toEqual({ thrown });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("a wallet that aborts synchronously and then throws: the abort (asked), the throw absorbed", async () => {
    const controller = new AbortController();
    const race = raceAbortSignal({
      signal: controller.signal,
      run: () => {
        controller.abort("mid-question");
        throw thrown;
      },
      abortError,
    });
    expect(await outcome(race)).toEqual({ aborted: { reason: "mid-question", asked: true } });
    await tick();
    expect(unhandled).toEqual([]);
  });

  it("an abortError that throws on an already aborted signal or one that cannot be listened to: its throw, run never asked", async () => {
    let asked = 0;
    const run = () => {
      asked++;
      return "signed";
    };
    const throwing = () => {
      throw thrown;
    };
    const unlistenable = { aborted: false, addEventListener: throwing } as unknown as AbortSignal;
    for (const signal of [AbortSignal.abort("gone"), unlistenable])
      expect(await outcome(raceAbortSignal({ signal, run, abortError: throwing }))).toEqual({ thrown });
    expect(asked).toBe(0);
  });

  it("a reason getter that throws when the event fires: the abort, that throw as its reason", async () => {
    const target = new EventTarget();
    let aborted = false;
    const signal = Object.defineProperties(target, {
      aborted: { get: () => aborted },
      reason: {
        get() {
          throw thrown;
        },
      },
    }) as unknown as AbortSignal;
    const race = raceAbortSignal({ signal, run: hangingWallet<string>().run, abortError });
    aborted = true;
    target.dispatchEvent(new Event("abort"));
    expect(await outcome(race)).toEqual({ aborted: { reason: thrown, asked: true } });
  });
});
