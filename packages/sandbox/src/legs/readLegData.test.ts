import { describe, expect, it } from "vitest";
import { readLegData, toLegDataJson } from "./readLegData.js";
import { type Json, LegRejection } from "./types.js";

describe("readLegData", () => {
  it("returns the stored object itself when its key is a string", () => {
    const stored: Json = { nonce: "42", signature: "0xab" };
    const read = readLegData<{ nonce: string; signature: string }>({
      legData: stored,
      key: "nonce",
      reason: "r",
    });
    expect(read).toBe(stored);
    expect(read.nonce).toBe("42");
    expect(toLegDataJson(read)).toBe(stored);
  });

  it.each<[string, Json]>([
    ["null", null],
    ["a string", "nonce"],
    ["a number", 7],
    ["a boolean", true],
    ["an array", ["nonce"]],
    ["an object without the key", { other: "1" }],
    ["an object whose key is a number", { nonce: 1 }],
    ["an object whose key is null", { nonce: null }],
    ["an object whose key is an object", { nonce: { value: "1" } }],
  ])("refuses %s with LEG_DATA_INVALID and the leg's reason", (_what, legData) => {
    let caught: unknown;
    try {
      readLegData({ legData, key: "nonce", reason: "missing permit2 nonce for this intent" });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LegRejection);
    expect((caught as LegRejection).code).toBe("LEG_DATA_INVALID");
    expect((caught as LegRejection).reason).toBe("missing permit2 nonce for this intent");
  });
});
