import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SwapIntentError } from "@swapintent/client";
import { describe, expect, it } from "vitest";
import { PERMIT2_ERROR_CODES as permit2ErrorCodes } from "../test/permit2Codes.js";
import { parseTronAddress } from "./address/parseTronAddress.js";
import { isPermit2Error, type Permit2ErrorCode } from "./errors.js";

const srcDir = import.meta.dirname;

/** Every source file of the package (no tests, type tests or benchmarks). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.(test|test-d|bench)\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** The codes in the README's "Error codes" table (the first column of each row). */
function readmeCodes(): Set<string> {
  const readme = readFileSync(join(srcDir, "..", "README.md"), "utf8");
  const section = readme.split(/^## Error codes$/m)[1]!.split(/^## /m)[0]!;
  const rows = section.split("\n").filter((line) => line.startsWith("| `"));
  return new Set(
    rows.flatMap((row) => [...row.split("|")[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]!)),
  );
}

describe("error codes", () => {
  it("every code is thrown somewhere in src (a createPermit2Error call with it)", () => {
    const source = sourceFiles(srcDir)
      .map((file) => readFileSync(file, "utf8"))
      .join("\n");
    const thrown = new Set([...source.matchAll(/createPermit2Error\(\s*"([A-Z0-9_]+)"/g)].map((m) => m[1]!));
    expect(permit2ErrorCodes.filter((code) => !thrown.has(code))).toEqual([]);
    // And nothing is thrown that the union lacks (the compiler refuses it too).
    expect([...thrown].filter((code) => !permit2ErrorCodes.includes(code as Permit2ErrorCode))).toEqual([]);
  });

  it("the README table documents exactly the codes of the union", () => {
    const documented = readmeCodes();
    expect(permit2ErrorCodes.filter((code) => !documented.has(code))).toEqual([]);
    expect([...documented].filter((code) => !permit2ErrorCodes.includes(code as Permit2ErrorCode))).toEqual(
      [],
    );
  });

  it("every code carries the package prefix, once", () => {
    expect(permit2ErrorCodes.filter((code) => !code.startsWith("PERMIT2_"))).toEqual([]);
    expect(new Set(permit2ErrorCodes).size).toBe(permit2ErrorCodes.length);
  });
});

describe("isPermit2Error", () => {
  const thrown = (() => {
    try {
      parseTronAddress({ address: "not base58!" });
    } catch (error) {
      return error;
    }
    throw new Error("expected a refusal");
  })();

  it("is true for an error the package threw, with or without its code", () => {
    expect(isPermit2Error(thrown)).toBe(true);
    expect(isPermit2Error(thrown, "PERMIT2_TRON_ADDRESS_INVALID")).toBe(true);
    expect(isPermit2Error(thrown, "PERMIT2_SPENDER_MISMATCH")).toBe(false);
  });

  it("is false for another package's swapintent error, a plain error and non-errors", () => {
    expect(isPermit2Error(new SwapIntentError("QUOTE_EXPIRED", "expired"))).toBe(false);
    expect(isPermit2Error(new SwapIntentError("BTC_MECHANISM_MISMATCH", "not an htlc"))).toBe(false);
    // The old unprefixed spelling is no longer a permit2 code.
    expect(isPermit2Error(new SwapIntentError("TRON_ADDRESS_INVALID", "old"))).toBe(false);
    const plain = Object.assign(new Error("x"), { code: "PERMIT2_SPENDER_MISMATCH" });
    expect(isPermit2Error(plain)).toBe(false);
    for (const value of [null, undefined, "PERMIT2_SPENDER_MISMATCH", 42, {}])
      expect(isPermit2Error(value)).toBe(false);
  });

  it("follows the exact code list, not the PERMIT2_ prefix: a prefixed code this copy does not know is no permit2 error", () => {
    // A newer copy of the package may add a code; this copy's guard must not narrow it to its own union.
    expect(isPermit2Error(new SwapIntentError("PERMIT2_FUTURE_CODE", "newer"))).toBe(false);
    expect(isPermit2Error(new SwapIntentError("PERMIT2_", "bare prefix"))).toBe(false);
    expect(isPermit2Error(new SwapIntentError("permit2_spender_mismatch", "lower case"))).toBe(false);
    // A code named like an Object.prototype member is not in the list either.
    expect(isPermit2Error(new SwapIntentError("toString", "prototype"))).toBe(false);
    expect(isPermit2Error(new SwapIntentError("__proto__", "prototype"))).toBe(false);
    for (const code of permit2ErrorCodes)
      expect(isPermit2Error(new SwapIntentError(code, "x"), code)).toBe(true);
  });

  it("narrows details to the code's facts at runtime too (the thrown error carries them)", () => {
    expect(isPermit2Error(thrown, "PERMIT2_TRON_ADDRESS_INVALID") && thrown.details.address).toBe(
      "not base58!",
    );
  });

  it("accepts a permit2 error from a duplicated copy of the client (shaped like one, not an instance)", () => {
    const copy = { name: "SwapIntentError", code: "PERMIT2_AMOUNT_MISMATCH", shortMessage: "x", details: {} };
    expect(isPermit2Error(copy)).toBe(true);
    expect(isPermit2Error(copy, "PERMIT2_AMOUNT_MISMATCH")).toBe(true);
  });
});
