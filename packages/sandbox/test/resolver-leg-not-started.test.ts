import { afterAll, beforeAll, expect, test } from "vitest";
import { LegRejection } from "../src/legs/types.js";
import { startTestSandbox, type TestSandbox } from "./support/harness.js";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox({ resolverStepsPerPass: 1 });
});
afterAll(() => t?.close());

test.each(["deposit", "deliver"] as const)(
  "a leg that is not started (LEG_NOT_STARTED) at %s is retried, never taken as a final refusal: the intent is Fulfilled, not refunded",
  async (step) => {
    const leg = t.legs.get(step === "deposit" ? 1 : 5)!;
    const original = leg[step];
    let refusedOnce = false;
    (leg as unknown as Record<string, unknown>)[step] = async (...args: unknown[]) => {
      if (refusedOnce) return (original as (...a: unknown[]) => Promise<unknown>).apply(leg, args);
      refusedOnce = true;
      throw new LegRejection("LEG_NOT_STARTED", "the leg is not started");
    };
    try {
      const { intent, wallet } = await t.createIntent({ amount: 10 });
      expect((await t.approve(intent, wallet)).status).toBe(200);
      const seen = new Set<string>();
      for (let pass = 0; pass < 10; pass++) {
        await t.sandbox.runResolverOnce();
        seen.add((await t.status(intent.intent_id)).status);
      }
      expect(refusedOnce).toBe(true);
      expect(seen.has("RefundRquested")).toBe(false);
      expect((await t.status(intent.intent_id)).status).toBe("Fulfilled");
    } finally {
      (leg as unknown as Record<string, unknown>)[step] = original;
    }
  },
);
