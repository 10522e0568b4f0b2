import { describe, expect, expectTypeOf, it } from "vitest";
import { toIntentStatus } from "./internal/wire.js";
import type { KnownIntentStatus } from "./types.js";
import { type WireIntentStatus, wireIntentStatuses } from "./wireIntentStatuses.js";

describe("wireIntentStatuses", () => {
  it("parses every wire status to a known status, and covers every known status", () => {
    const parsed = wireIntentStatuses.map((status) => toIntentStatus(status));
    expect(parsed).not.toContain("Unknown");
    const known: Record<KnownIntentStatus, true> = {
      Initiated: true,
      ApprovalAdded: true,
      Accepted: true,
      Declined: true,
      UserDeposited: true,
      Fulfilled: true,
      Expired: true,
      RefundRequested: true,
      Refunded: true,
    };
    expect(new Set(parsed)).toEqual(new Set(Object.keys(known)));
    expect(new Set(wireIntentStatuses).size).toBe(wireIntentStatuses.length);
  });

  it("differs from the known statuses only in the spec's spelling of RefundRquested", () => {
    expectTypeOf<
      Exclude<WireIntentStatus, "RefundRquested"> | "RefundRequested"
    >().toEqualTypeOf<KnownIntentStatus>();
    expect(toIntentStatus("RefundRquested")).toBe("RefundRequested");
  });
});
