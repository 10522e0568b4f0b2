import { describe, expect, it } from "vitest";
import { cutText } from "./cutText.js";
import { scrubText } from "./scrubText.js";

const hasLoneSurrogate = (text: string) =>
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

describe("cutText", () => {
  it("keeps text at the limit and cuts longer text, noting the full length", () => {
    expect(cutText("abc", 3)).toBe("abc");
    expect(cutText("abcd", 3)).toBe("abc… (4 chars)");
  });

  it("never cuts a surrogate pair in two, wherever the limit falls", () => {
    const text = "ab😀c😀😀d";
    for (let max = 1; max < text.length; max++) {
      const cut = cutText(text, max);
      expect(hasLoneSurrogate(cut)).toBe(false);
      expect(cut.endsWith(`(${text.length} chars)`)).toBe(true);
    }
  });

  it("is the cut of server text too: a scrubbed message is cut whole characters only", () => {
    const text = `${"x".repeat(999)}😀 tail`;
    const clean = scrubText(text, ["sk_live_key"], 1000);
    expect(hasLoneSurrogate(clean)).toBe(false);
    expect(clean).toBe(`${"x".repeat(999)}… (${text.length} chars)`);
  });
});
