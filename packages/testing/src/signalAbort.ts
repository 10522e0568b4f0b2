/**
 * The caller's `signal` on every wallet path of a signer package, as one parametrised suite: an already aborted
 * signal is refused before the wallet (or key) is touched; an abort while the wallet is asked rejects at once with
 * the signal's reason as cause and leaves no listener; a late answer is never used and a late failure never
 * unhandled; a wallet that aborts the signal itself yields no approval; a signal that never aborts changes nothing;
 * one long-lived signal over many signings collects no listener. Each package passes its routes, its stand-in
 * wallet and what its refusal looks like; its own cases (the attacker's signals, its wallet kinds) stay beside it.
 */
import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

/** A wallet whose question at its route's step waits until the test answers or fails it, or forever. */
export interface HangingWallet {
  /** Every question and getter the wallet was asked, in order. */
  asked: string[];
  /** Runs `hook` with the step whenever the wallet is asked a question. */
  onAsk: (hook: (step: string) => void) => void;
  /** Answers every waiting question honestly. */
  answerLate: () => void;
  /** Fails every waiting question with `error`. */
  failLate: (error: unknown) => void;
}

/** One way the package signs, driven by a stand-in wallet. */
export interface SignalRoute<TWallet extends HangingWallet> {
  name: string;
  /** Whether the route asks a wallet at all (an in-process key may sign without one). */
  waits: boolean;
  /** The step at which the route's wallet hangs (recorded in `asked` when asked). */
  hangAt: string;
  /** A fresh stand-in wallet for this route. */
  standIn: () => TWallet;
  /** Signs through the route with `wallet`, under `signal`. */
  sign: (wallet: TWallet, signal: AbortSignal | undefined) => Promise<unknown>;
}

/** What the suite needs to know of a package. */
export interface DescribeSignalAbortParameters<
  TWallet extends HangingWallet,
  TRoute extends SignalRoute<TWallet> = SignalRoute<TWallet>,
> {
  routes: readonly TRoute[];
  /** The package's abort code (`PERMIT2_SIGNING_ABORTED`, `SOL_SIGNING_ABORTED`). */
  abortedCode: string;
  /** The abort error's details for a stage on a route. */
  abortedDetails: (stage: "beforeSigning" | "whileSigning", route: TRoute) => unknown;
  /** Checks the approval an honest wallet produced under a live signal. */
  expectHonest: (approval: unknown, route: TRoute) => Promise<void> | void;
  /** Rounds of honest signings on every route under one signal (the listener-collection check). */
  honestRounds: number;
}

/** The refusal `run` rejects with, as `{ code, details, cause }` (fails on an approval or an uncoded error). */
export async function readRefusal(run: Promise<unknown>) {
  const error = await run.then(
    () => {
      throw new Error("expected a refusal, but an approval was returned");
    },
    (e: unknown) => e,
  );
  if (typeof error !== "object" || error === null || typeof (error as { code?: unknown }).code !== "string")
    throw error;
  const { code, details, cause } = error as { code: string; details?: unknown; cause?: unknown };
  return { code, details, cause };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Waits until `wallet` was asked `step`. */
async function untilAsked(wallet: HangingWallet, step: string): Promise<void> {
  while (!wallet.asked.includes(step)) await tick();
}

/**
 * Describes the shared signal suite for a package's routes (see the file's comment for what it proves).
 *
 * @example
 * ```ts
 * describeSignalAbort({ routes, abortedCode: "SOL_SIGNING_ABORTED", abortedDetails: (stage) => ({ stage }),
 *   expectHonest: async (approval) => expect(await runs(approval)).toBe(true), honestRounds: 8 });
 * ```
 */
export function describeSignalAbort<
  TWallet extends HangingWallet,
  TRoute extends SignalRoute<TWallet> = SignalRoute<TWallet>,
>(parameters: DescribeSignalAbortParameters<TWallet, TRoute>): void {
  const { routes, abortedCode, abortedDetails, expectHonest, honestRounds } = parameters;
  const waiting = routes.filter((route) => route.waits);
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeEach(() => {
    unhandled.length = 0;
    process.on("unhandledRejection", onUnhandled);
  });
  afterEach(() => {
    process.off("unhandledRejection", onUnhandled);
  });

  describe.each(routes)("$name: the caller's signal", (route) => {
    it("an already aborted signal is refused before the wallet (or key) is touched", async () => {
      const wallet = route.standIn();
      const reason = new Error("user left");
      expect(await readRefusal(route.sign(wallet, AbortSignal.abort(reason)))).toEqual({
        code: abortedCode,
        details: abortedDetails("beforeSigning", route),
        cause: reason,
      });
      expect(wallet.asked).toEqual([]);
    });

    it("a signal that never aborts changes nothing: the honest answer is the approval, no listener left", async () => {
      const wallet = route.standIn();
      wallet.onAsk((step) => {
        if (step === route.hangAt) queueMicrotask(() => wallet.answerLate());
      });
      const controller = new AbortController();
      await expectHonest(await route.sign(wallet, controller.signal), route);
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    });
  });

  describe.each(waiting)("$name: a wallet that never answers", (route) => {
    it("aborting while the wallet is asked rejects at once, the signal's reason as cause, no listener left", async () => {
      const wallet = route.standIn();
      const controller = new AbortController();
      const pending = route.sign(wallet, controller.signal);
      await untilAsked(wallet, route.hangAt);
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
      const reason = { why: "timeout" };
      controller.abort(reason);
      expect(await readRefusal(pending)).toEqual({
        code: abortedCode,
        details: abortedDetails("whileSigning", route),
        cause: reason,
      });
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
      // Nothing after the hanging question was asked.
      expect(wallet.asked.at(-1)).toBe(route.hangAt);
    });

    it("a late honest answer after the abort is ignored, and a late failure is never unhandled", async () => {
      for (const late of ["answer", "fail"] as const) {
        const wallet = route.standIn();
        const controller = new AbortController();
        const pending = route.sign(wallet, controller.signal);
        await untilAsked(wallet, route.hangAt);
        controller.abort();
        if (late === "answer") wallet.answerLate();
        else wallet.failLate(new Error("wallet closed"));
        expect((await readRefusal(pending)).code, late).toBe(abortedCode);
        await tick();
        await tick();
      }
      expect(unhandled).toEqual([]);
    });

    it("re-entrancy: a wallet that aborts the caller's signal itself, then answers, yields no approval", async () => {
      const wallet = route.standIn();
      const controller = new AbortController();
      wallet.onAsk((step) => {
        if (step !== route.hangAt) return;
        controller.abort("the wallet said so");
        queueMicrotask(() => wallet.answerLate());
      });
      expect(await readRefusal(route.sign(wallet, controller.signal))).toEqual({
        code: abortedCode,
        details: abortedDetails("whileSigning", route),
        cause: "the wallet said so",
      });
    });
  });

  describe("one long-lived signal over many signings", () => {
    it("many calls waiting at once on one signal: one abort ends them all, and leaves no listener", async () => {
      const controller = new AbortController();
      const pending = waiting.map((route) => {
        const wallet = route.standIn();
        return { wallet, route, run: route.sign(wallet, controller.signal) };
      });
      for (const { wallet, route } of pending) await untilAsked(wallet, route.hangAt);
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(pending.length);
      controller.abort();
      for (const { run, route } of pending)
        expect((await readRefusal(run)).code, route.name).toBe(abortedCode);
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    });

    it(`collects no listener: ${honestRounds} rounds of honest signings on every route leave it with none`, async () => {
      const controller = new AbortController();
      for (let round = 0; round < honestRounds; round++) {
        for (const route of routes) {
          const wallet = route.standIn();
          wallet.onAsk((step) => {
            if (step === route.hangAt) queueMicrotask(() => wallet.answerLate());
          });
          await route.sign(wallet, controller.signal);
        }
      }
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    });
  });
}
