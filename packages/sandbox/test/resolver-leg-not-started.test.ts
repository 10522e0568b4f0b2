import { expect, test } from "vitest";
import { LegRejection } from "../src/legs/types.js";
import { startTestSandbox } from "./support/harness.js";

test.each(["deposit", "deliver"] as const)(
  "a leg that is not started (LEG_NOT_STARTED) at %s is retried, never taken as a final refusal: the intent is Fulfilled, not refunded",
  async (step) => {
    const t = await startTestSandbox({ resolverStepsPerPass: 1 });
    try {
      const leg = t.legs.get(step === "deposit" ? 1 : 5)!;
      const original = leg[step].bind(leg) as (...args: unknown[]) => Promise<never>;
      let refusedOnce = false;
      (leg as unknown as Record<string, unknown>)[step] = async (...args: unknown[]) => {
        if (refusedOnce) return original(...args);
        refusedOnce = true;
        throw new LegRejection("LEG_NOT_STARTED", "the leg is not started");
      };
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
      await t.close();
    }
  },
);
