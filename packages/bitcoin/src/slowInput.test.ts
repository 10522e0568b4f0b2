/**
 * Service text is cut before it is escaped for an error: escaping every bidi character of a 4 MB string (a
 * callback and ~8 characters each) took seconds, to keep the first 200. The bound is generous (cutting first
 * takes well under a millisecond); before the fix each case took ~3 s.
 */
import * as ecc from "tiny-secp256k1";
import { describe, expect, it } from "vitest";
import { buildDeposit, hex, userKey } from "../test/fixtures.js";
import { escapeForDisplay } from "./internal/displaySafe.js";
import { verifyHtlcPsbt } from "./verifyHtlcPsbt/verifyHtlcPsbt.js";

const bidi = "\u202E".repeat(4_000_000);

/** The error `run` throws, and how long it took in milliseconds. */
function timed(run: () => unknown): {
  error: { code?: string; details?: Record<string, unknown> };
  ms: number;
} {
  const started = performance.now();
  try {
    run();
  } catch (error) {
    return { error: error as { code?: string }, ms: performance.now() - started };
  }
  throw new Error("expected a refusal, but the call passed");
}

describe("error details from service text are cut before they are escaped", () => {
  it("4 MB of bidi characters as the approval mechanism: refused at once (~3 s before)", () => {
    const deposit = buildDeposit();
    const intent = { ...deposit.intent, approvalMechanism: bidi } as unknown as typeof deposit.intent;
    const { error, ms } = timed(() =>
      verifyHtlcPsbt({ ecc, intent, quote: deposit.quote, userPublicKey: hex(userKey.publicKey) }),
    );
    expect(ms).toBeLessThan(1000);
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
