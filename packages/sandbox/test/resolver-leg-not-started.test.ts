import { afterAll, beforeAll, expect, test } from "vitest";
import { LegRejection } from "../src/legs/types.js";
import { startTestSandbox, type TestSandbox } from "./support/harness.js";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox({ resolverStepsPerPass: 1 });
});
afterAll(() => t?.close());

type Step = "deposit" | "deliver";
const legOf = (step: Step) => t.legs.get(step === "deposit" ? 1 : 5)!;

/**
 * Make `step` of its leg refuse with LEG_NOT_STARTED while `refusing()` says so (the leg's own method otherwise);
 * returns how many calls were refused and a restore function.
 */
function refuseWhile(step: Step, refusing: () => boolean) {
  const leg = legOf(step);
  const original = leg[step];
  const state = { refused: 0 };
  (leg as unknown as Record<string, unknown>)[step] = async (...args: unknown[]) => {
    if (!refusing()) return (original as (...a: unknown[]) => Promise<unknown>).apply(leg, args);
    state.refused++;
    throw new LegRejection("LEG_NOT_STARTED", "the leg is not started");
  };
  return {
    state,
    restore: () => {
      (leg as unknown as Record<string, unknown>)[step] = original;
    },
  };
}

const debug = async (id: string) => (await t.request("GET", `/sandbox/intents/${id}`)).body;

test.each(["deposit", "deliver"] as const)(
  "a leg that is not started (LEG_NOT_STARTED) at %s is retried, never taken as a final refusal: the intent is Fulfilled, not refunded",
  async (step) => {
    let refusedOnce = false;
    const refusal = refuseWhile(step, () => !refusedOnce);
    const original = refusal.state;
    try {
      const { intent, wallet } = await t.createIntent({ amount: 10 });
      expect((await t.approve(intent, wallet)).status).toBe(200);
      const seen = new Set<string>();
      for (let pass = 0; pass < 10; pass++) {
        await t.sandbox.runResolverOnce();
        if (original.refused > 0) refusedOnce = true;
        seen.add((await t.status(intent.intent_id)).status);
      }
      expect(refusedOnce).toBe(true);
      expect(seen.has("RefundRquested")).toBe(false);
      expect((await t.status(intent.intent_id)).status).toBe("Fulfilled");
    } finally {
      refusal.restore();
    }
  },
);

test.each(["deposit", "deliver"] as const)(
  "a leg that stays not started at %s does not hold the intent past its deadline: it is refunded, the user keeps the funds",
  async (step) => {
    const refusal = refuseWhile(step, () => true);
    try {
      const { intent, wallet, recipient, quote } = await t.createIntent({ amount: 20 });
      const src = t.legs.get(1)!;
      const start = await src.balanceOf(wallet.address, quote.source_token);
      expect((await t.approve(intent, wallet)).status).toBe(200);
      for (let pass = 0; pass < 6 && refusal.state.refused < 2; pass++) await t.sandbox.runResolverOnce();
      expect(refusal.state.refused).toBeGreaterThanOrEqual(2);
      // before the deadline it keeps trying (the leg may come back)
      expect((await t.status(intent.intent_id)).status).toBe(
        step === "deposit" ? "Accepted" : "UserDeposited",
      );
      await t.sandbox.advanceClock(1801);
      const final = await t.settle(intent.intent_id, ["Refunded"], 6);
      expect(final.status).toBe("Refunded");
      const row = await debug(intent.intent_id);
      expect(row.pending_step).toBeNull();
      expect(row.last_error).toContain("deadline passed");
      // deposit never taken: refunded without a transaction; deposit taken: refunded by the source leg
      if (step === "deposit") expect(row.refund_tx).toBeNull();
      else expect(row.refund_tx).toMatch(/^0x/);
      expect(await src.balanceOf(wallet.address, quote.source_token)).toBe(start);
      expect(await t.legs.get(5)!.balanceOf(recipient.address, quote.dest_token)).toBe(0n);
      const refusedAtDeadline = refusal.state.refused;
      for (let pass = 0; pass < 3; pass++) await t.sandbox.runResolverOnce();
      expect(refusal.state.refused).toBe(refusedAtDeadline); // no more calls once it is settled
    } finally {
      refusal.restore();
    }
  },
);

test("a step whose earlier call may have moved funds is resumed past the deadline, never dropped: the deposit the leg took is refunded, not lost", async () => {
  const { intent, wallet, quote } = await t.createIntent({ amount: 30 });
  const src = t.legs.get(1)!;
  const start = await src.balanceOf(wallet.address, quote.source_token);
  expect((await t.approve(intent, wallet)).status).toBe(200);
  src.crashAfterNext("deposit"); // the leg takes the deposit, then the call fails: outcome unknown to the resolver
  await t.settle(intent.intent_id, ["Accepted"], 2);
  for (let pass = 0; pass < 4 && (await debug(intent.intent_id)).pending_step !== "deposit"; pass++)
    await t.sandbox.runResolverOnce();
  expect((await debug(intent.intent_id)).pending_step).toBe("deposit");
  expect(start - (await src.balanceOf(wallet.address, quote.source_token))).toBe(30_000000n);

  let down = true;
  const refusal = refuseWhile("deposit", () => down);
  try {
    await t.sandbox.advanceClock(1801);
    for (let pass = 0; pass < 4; pass++) await t.sandbox.runResolverOnce();
    expect(refusal.state.refused).toBeGreaterThanOrEqual(2);
    // still the recorded deposit: dropping it would refund "nothing" and keep the user's 30 USDC in escrow
    expect(await debug(intent.intent_id)).toMatchObject({ status: "Accepted", pending_step: "deposit" });
    down = false;
    const final = await t.settle(intent.intent_id, ["Refunded"], 8);
    expect(final.status).toBe("Refunded");
    expect(final.swap_metadata.user_deposit_tx).toMatch(/^0x/);
    expect(await src.balanceOf(wallet.address, quote.source_token)).toBe(start);
  } finally {
    refusal.restore();
  }
});
