import { describe, expect, it } from "vitest";
import { getQuoteTimeLeft } from "./getQuoteTimeLeft.js";
import { isQuoteExpired } from "./isQuoteExpired.js";
import { isTerminalStatus } from "./isTerminalStatus.js";

const quote = { expiryMs: 1_800_000_030_000 };

describe("quote helpers", () => {
  it("isQuoteExpired is false before expiry, true at and after it", () => {
    expect(isQuoteExpired({ quote, now: 1_800_000_029_999 })).toBe(false);
    expect(isQuoteExpired({ quote, now: 1_800_000_030_000 })).toBe(true);
    expect(isQuoteExpired({ quote, now: 1_800_000_040_000 })).toBe(true);
  });

  it("isQuoteExpired honours a safety margin", () => {
    expect(isQuoteExpired({ quote, now: 1_800_000_025_000, marginMs: 5_000 })).toBe(true);
    expect(isQuoteExpired({ quote, now: 1_800_000_024_999, marginMs: 5_000 })).toBe(false);
  });

  it("getQuoteTimeLeft counts down to 0 and stays there", () => {
    expect(getQuoteTimeLeft({ quote, now: 1_800_000_000_000 })).toBe(30_000);
    expect(getQuoteTimeLeft({ quote, now: 1_800_000_030_001 })).toBe(0);
  });

  it("isTerminalStatus knows the four terminal states", () => {
    expect(
      ["Fulfilled", "Declined", "Expired", "Refunded"].every((status) =>
        isTerminalStatus({ status } as never),
      ),
    ).toBe(true);
    for (const status of [
      "Initiated",
      "ApprovalAdded",
      "Accepted",
      "UserDeposited",
      "RefundRequested",
      "Unknown",
    ] as const) {
      expect(isTerminalStatus({ status })).toBe(false);
    }
  });
});
