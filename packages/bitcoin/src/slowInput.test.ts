/**
 * Service text is cut before it is escaped for an error: escaping every bidi character of a 4 MB string (a
 * callback and ~8 characters each) took seconds, to keep the first 200. The work is counted, not timed: the
 * refusal makes a match per character kept, not one per character sent (4 million before the fix, ~3 s). The speed
 * itself is measured by `pnpm bench` (`oversized.bench.ts`).
 */
import { recordPatternWork } from "@swapintent/testing/recordPatternWork";
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { buildDeposit, hex, userKey } from "../test/fixtures.js";
import { escapeForDisplay } from "./internal/displaySafe.js";
import { verifyHtlcPsbt } from "./verifyHtlcPsbt/verifyHtlcPsbt.js";

const bidi = "\u202E".repeat(4_000_000);

/** The error `run` throws, and how many matches its patterns made on the way. */
async function refusalWork(run: () => unknown): Promise<{
  error: { code?: string; details?: Record<string, unknown> };
  calls: number;
}> {
  const { outcome, calls } = await recordPatternWork({ run });
  if (!("thrown" in outcome)) throw new Error("expected a refusal, but the call passed");
  return { error: outcome.thrown as { code?: string }, calls };
}

describe("error details from service text are cut before they are escaped", () => {
  it("4 MB of bidi characters as the approval mechanism: refused with ~200 escapes, not 4 million", async () => {
    const deposit = buildDeposit();
    const intent = { ...deposit.intent, approvalMechanism: bidi } as unknown as typeof deposit.intent;
    const { error, calls } = await refusalWork(() =>
      verifyHtlcPsbt({ ecc, intent, quote: deposit.quote, userPublicKey: hex(userKey.publicKey) }),
    );
    expect(calls).toBeLessThan(10_000);
    expect(error.code).toBe("BTC_MECHANISM_MISMATCH");
    expect(error.details?.approvalMechanism).toBe(`${"\\u{202e}".repeat(25)}…`);
  });

  it("gives the same text as escaping everything, at every length around the cut", () => {
    const escapeAll = (text: string) => {
      const escaped = text.replace(/[\n\u202e]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
      return escaped.length > 200 ? `${escaped.slice(0, 200)}…` : escaped;
    };
    for (let length = 190; length <= 210; length++)
      for (const fill of ["x", "\u202E", "\n", "\u{1F600}"]) {
        const text = fill.repeat(length).slice(0, length);
        expect(escapeForDisplay(text), `${length} ${JSON.stringify(fill)}`).toBe(escapeAll(text));
      }
  });
});
