import { describe, expect, it } from "vitest";
import { formatQueryString } from "./formatQueryString.js";

describe("formatQueryString", () => {
  it("percent-encodes query keys and values", () => {
    expect(formatQueryString({ query: [["q", "a b&c=d/é"]] })).toBe("q=a%20b%26c%3Dd%2F%C3%A9");
    expect(formatQueryString({ query: [] })).toBe("");
  });

  it("sorts by key and keeps repeated keys in their order", () => {
    expect(
      formatQueryString({
        query: [
          ["wallet", "z"],
          ["limit", "5"],
          ["wallet", "a"],
        ],
      }),
    ).toBe("limit=5&wallet=z&wallet=a");
  });
});
