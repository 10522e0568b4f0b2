import { describe, expect, it } from "vitest";
import { hasErrorCode } from "./hasErrorCode.js";
import { isSwapIntentError, SwapIntentError } from "./swapIntentError.js";

describe("SwapIntentError", () => {
  it("carries code, shortMessage, details and cause, and lists details in the message", () => {
    const cause = new Error("root");
    const error = new SwapIntentError("QUOTE_EXPIRED", "The quote has expired.", {
      details: { expiryMs: 5, lots: 7n },
      cause,
    });
    expect(error.code).toBe("QUOTE_EXPIRED");
    expect(error.shortMessage).toBe("The quote has expired.");
    expect(error.details).toEqual({ expiryMs: 5, lots: 7n });
    expect(error.cause).toBe(cause);
    expect(error.name).toBe("SwapIntentError");
    expect(error.message).toBe("[QUOTE_EXPIRED] The quote has expired.\n  expiryMs: 5\n  lots: 7n");
  });

  it("shortens long detail values in the message but keeps them whole in details", () => {
    const body = "x".repeat(5000);
    const error = new SwapIntentError("RESPONSE_INVALID", "Bad body.", { details: { body } });
    expect(error.details.body).toBe(body);
    expect(error.message.length).toBeLessThan(500);
    expect(error.message).toContain("(5000 chars)");
  });

  it("never cuts a surrogate pair when it shortens a detail (found by permit2's generative test)", () => {
    for (const offset of [0, 1]) {
      const body = `${"x".repeat(299 - offset)}${"\u{1F600}".repeat(10)}`;
      const error = new SwapIntentError("RESPONSE_INVALID", "Bad body.", { details: { body } });
      expect(error.message).not.toMatch(
        /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/,
      );
      expect(error.message).toContain(`(${body.length} chars)`);
    }
  });
});

describe("isSwapIntentError", () => {
  it("recognizes our errors, optionally by code", () => {
    const error = new SwapIntentError("NOT_FOUND", "gone");
    expect(isSwapIntentError(error)).toBe(true);
    expect(isSwapIntentError(error, "NOT_FOUND")).toBe(true);
    expect(isSwapIntentError(error, "TIMEOUT")).toBe(false);
  });

  it("rejects other values", () => {
    for (const value of [new Error("x"), null, undefined, "NOT_FOUND", { code: "NOT_FOUND" }, 42]) {
      expect(isSwapIntentError(value)).toBe(false);
    }
  });

  it("recognizes an error from a duplicated copy of the module", async () => {
    // a query suffix makes vite load a second, independent instance of the module
    const copySpecifier: string = "./swapIntentError.js?copy";
    const copy = (await import(/* @vite-ignore */ copySpecifier)) as typeof import("./swapIntentError.js");
    expect(copy.SwapIntentError).not.toBe(SwapIntentError);
    const foreign = new copy.SwapIntentError("TIMEOUT", "slow");
    expect(foreign instanceof SwapIntentError).toBe(false);
    expect(isSwapIntentError(foreign, "TIMEOUT")).toBe(true);
    expect(copy.isSwapIntentError(new SwapIntentError("ABORTED", "stop"), "ABORTED")).toBe(true);
  });

  it("recognizes the error shape when the brand is lost (structured clone, serialization)", () => {
    const shaped = Object.assign(new Error("[X] y"), {
      name: "SwapIntentError",
      code: "X",
      shortMessage: "y",
      details: {},
    });
    expect(isSwapIntentError(shaped, "X")).toBe(true);
  });
});

describe("JSON.stringify(error)", () => {
  it("writes bigint details as text instead of throwing, and leaves the cause out", () => {
    const error = new SwapIntentError("INVALID_INPUT", "Bad amount.", {
      details: { value: 5n, nested: { lots: [1n, 2n] } },
      cause: new Error("inner secret"),
    });
    expect(() => JSON.stringify({ value: 5n })).toThrow(TypeError); // what the error replaces
    const json = JSON.parse(JSON.stringify(error));
    expect(json).toEqual({
      name: "SwapIntentError",
      code: "INVALID_INPUT",
      shortMessage: "Bad amount.",
      message: error.message,
      details: { value: "5n", nested: { lots: ["1n", "2n"] } },
    });
    expect(JSON.stringify(error)).not.toContain("inner secret");
  });

  it("a detail with a cycle: written without details, not thrown", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const json = JSON.parse(JSON.stringify(new SwapIntentError("X", "Cycle.", { details: { cyclic } })));
    expect(json.code).toBe("X");
    expect(json.details).toEqual({});
  });
});

describe("hasErrorCode (the one guard rule of every package)", () => {
  const codes = { MY_AMOUNT_MISMATCH: true, MY_INPUT_INVALID: true } as const;

  it("accepts a swapintent error whose code is in the exact list, optionally that very code", () => {
    const error = new SwapIntentError("MY_AMOUNT_MISMATCH", "Amount differs.");
    expect(hasErrorCode(error, codes)).toBe(true);
    expect(hasErrorCode(error, codes, "MY_AMOUNT_MISMATCH")).toBe(true);
    expect(hasErrorCode(error, codes, "MY_INPUT_INVALID")).toBe(false);
  });

  it("refuses a code outside the list, even with the same prefix, and anything not a swapintent error", () => {
    expect(hasErrorCode(new SwapIntentError("MY_NEWER_CODE", "From a newer copy."), codes)).toBe(false);
    expect(hasErrorCode(new SwapIntentError("toString", "Inherited name."), codes)).toBe(false);
    expect(hasErrorCode(new SwapIntentError("__proto__", "Inherited name."), codes)).toBe(false);
    for (const value of [new Error("MY_AMOUNT_MISMATCH"), { code: "MY_AMOUNT_MISMATCH" }, null, "x"]) {
      expect(hasErrorCode(value, codes)).toBe(false);
    }
  });
});
