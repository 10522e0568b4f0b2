/**
 * The deadline: the intent's, in the future, at most `maxDeadlineSecs` away and never past what a `Date` can show,
 * whatever the service's deadline and the wallet's own clock and bound; each refusal before any wallet is asked.
 */
import { isSwapIntentError } from "@swapintent/client";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codeOf } from "../../test/codeOf.js";
import { NOW_MS } from "../../test/fixtures/buildPermit2Fixture.js";
import { parametersOf } from "../../test/fixtures/parametersOf.js";
import { signWithSpies } from "../../test/signWithSpies.js";
import { verifyPermit2Approval } from "./verifyPermit2Approval.js";

/** The latest instant a JavaScript `Date` holds (8.64e15 ms), in seconds. */
const LAST_DATE_SECS = 8_640_000_000_000;

describe("a deadline beyond any time the summary can show", () => {
  // A wallet that turns the deadline bound off (`maxDeadlineSecs: Number.MAX_SAFE_INTEGER`) let a deadline past
  // year 275760 through every check, and the summary's `new Date(…).toISOString()` then threw a bare RangeError.
  it.each([
    ["just past the last Date", LAST_DATE_SECS + 1],
    ["9e12 seconds", 9_000_000_000_000],
    ["the largest safe integer", Number.MAX_SAFE_INTEGER],
  ])("%s, with the bound turned off: PERMIT2_DEADLINE_TOO_FAR, no wallet asked", async (_name, deadline) => {
    for (const chain of ["evm", "tron"] as const) {
      const parameters = { ...parametersOf({ chain }), maxDeadlineSecs: Number.MAX_SAFE_INTEGER };
      (parameters.intent as { deadlineSecs: number }).deadlineSecs = deadline;
      expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_DEADLINE_TOO_FAR");
      expect(await signWithSpies(parameters, chain)).toEqual({ code: "PERMIT2_DEADLINE_TOO_FAR", calls: 0 });
    }
  });

  it("the last Date itself is still a deadline the summary shows", () => {
    const parameters = { ...parametersOf(), maxDeadlineSecs: Number.MAX_SAFE_INTEGER };
    (parameters.intent as { deadlineSecs: number }).deadlineSecs = LAST_DATE_SECS;
    const { summary } = verifyPermit2Approval(parameters);
    expect(summary.deadlineIso).toBe("+275760-09-13T00:00:00.000Z");
    expect(summary.lines).toContain("Valid until +275760-09-13T00:00:00.000Z");
  });

  it("within the default bound nothing changes: one day ahead is accepted, one second more is too far", () => {
    const day = NOW_MS / 1000 + 86_400;
    const at = (deadline: number) => {
      const parameters = parametersOf();
      (parameters.intent as { deadlineSecs: number }).deadlineSecs = deadline;
      return parameters;
    };
    expect(verifyPermit2Approval(at(day)).summary.deadlineSecs).toBe(day);
    expect(codeOf(() => verifyPermit2Approval(at(day + 1)))).toBe("PERMIT2_DEADLINE_TOO_FAR");
  });
});

describe("any deadline, clock and bound the wallet passes", () => {
  // The whole class: whatever the service's deadline and the wallet's own clock and bound, the result
  // is a coded refusal or a summary whose deadline reads back as the signed one, never a stray exception.
  it("a permit2 code, or a summary that shows the signed deadline (fast-check, fixed seed)", () => {
    const parameters = parametersOf();
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        fc.oneof(fc.constant(NOW_MS), fc.integer({ min: -8.64e15, max: 8.64e15 })),
        fc.oneof(
          fc.constantFrom(0, 86_400, Number.MAX_SAFE_INTEGER, Number.MAX_VALUE),
          fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        ),
        (deadlineSecs, nowMs, maxDeadlineSecs) => {
          const intent = { ...parameters.intent, deadlineSecs };
          let summary: ReturnType<typeof verifyPermit2Approval>["summary"];
          try {
            summary = verifyPermit2Approval({ ...parameters, intent, nowMs, maxDeadlineSecs }).summary;
          } catch (error) {
            expect(isSwapIntentError(error) && error.code).toMatch(/^PERMIT2_DEADLINE_(PASSED|TOO_FAR)$/);
            return;
          }
          expect(deadlineSecs * 1000).toBeGreaterThan(nowMs);
          expect(Date.parse(summary.deadlineIso)).toBe(deadlineSecs * 1000);
        },
      ),
      { seed: 20261127, numRuns: 2_000 },
    );
  });
});
