import { describe, expect, it } from "vitest";
import { rejection } from "../../test/helpers.js";
import { getIntentStatus } from "../actions/getIntentStatus.js";
import { createBaseClient } from "../client/createBaseClient.js";
import { SwapIntentError } from "./swapIntentError.js";

describe("an error's message is one line per detail, whoever wrote the text", () => {
  it("a caller's value quoted by INVALID_INPUT cannot add a line (an intent id from a link)", async () => {
    const client = createBaseClient({ baseUrl: "https://swap.example", auth: "none" });
    // (under 24 characters: a longer string is shown only as its type)
    const error = await rejection(getIntentStatus(client, { intentId: "0xab\n[INFO] sent\u001b[1A" }));
    expect(error.code).toBe("INVALID_INPUT");
    const { message } = error as unknown as Error;
    expect(message.split("\n")).toHaveLength(1 + Object.keys(error.details).length);
    expect(message).toContain("0xab\\u{a}[INFO] sent\\u{1b}[1A");
  });

  it("string, nested object and array details and the short message: controls, bidi and separators escaped", () => {
    const text = "a\u2028b\u202ec\u0085d\ud800e\tf";
    const error = new SwapIntentError("X", `short ${text}`, {
      details: { text, nested: { text }, list: [text] },
    });
    expect(error.message.split("\n")).toHaveLength(4);
    expect(error.shortMessage).toBe("short a\\u{2028}b\\u{202e}c\\u{85}d\\u{d800}e\\u{9}f");
    expect(error.message).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}](?<!\n)/u);
    // details keep the value as given: they are data, and JSON escapes what a log line needs escaped
    expect(error.details.text).toBe(text);
  });

  it("ordinary text, emoji and accents are left as they are", () => {
    const error = new SwapIntentError("X", "Prix dépassé 😀", { details: { token: "Ünïcödé 🚀" } });
    expect(error.message).toBe("[X] Prix dépassé 😀\n  token: Ünïcödé 🚀");
  });
});
