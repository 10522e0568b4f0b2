import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isSwapIntentError, SwapIntentError } from "@swapintent/client";
import { describe, expect, it } from "vitest";
import { SOLANA_COSIGN_ERROR_CODES } from "../test/codes.js";
import { type SolanaCosignErrorCode, solanaError } from "./errors.js";
import { getAssociatedTokenAccountAddress } from "./getAssociatedTokenAccountAddress.js";
import { isSolanaCosignError } from "./isSolanaCosignError.js";

const SRC = import.meta.dirname;
const UNION = Object.keys(SOLANA_COSIGN_ERROR_CODES).sort();

/** The package's own code: every `.ts` under src/ but tests, type tests, benchmarks and the code list itself. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    const code = /\.ts$/.test(entry.name) && !/\.(test|test-d|bench)\.ts$/.test(entry.name);
    return code && entry.name !== "errors.ts" ? [path] : [];
  });
}

/** Source text without comments, so a code named only in a comment does not count as raised. */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");

describe("the SolanaCosignErrorCode union", () => {
  const code = sourceFiles(SRC).map((file) => withoutComments(readFileSync(file, "utf8")));

  it("every code is raised somewhere in src, and src raises no code outside the union", () => {
    expect(code.length).toBeGreaterThan(5);
    const raised = [
      ...new Set(code.flatMap((text) => [...text.matchAll(/"(SOL_[A-Z0-9_]+)"/g)].map((m) => m[1]))),
    ];
    expect(raised.sort()).toEqual(UNION);
  });

  it("every error goes through the typed factory (no bare SwapIntentError in src)", () => {
    for (const text of code) expect(text).not.toMatch(/new SwapIntentError\b/);
    const thrown = code.join("\n").match(/solanaError\(/g) ?? [];
    expect(thrown.length).toBeGreaterThan(25);
  });

  it("the README's table lists exactly the union, each once", () => {
    const readme = readFileSync(join(SRC, "..", "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Error codes"));
    const table = section.slice(0, section.search(/\n\n(?!\|)/));
    const rows = [...table.matchAll(/^\| `(SOL_[A-Z0-9_]+)` +\|/gm)].map((m) => m[1]);
    expect(rows.length).toBe(new Set(rows).size);
    expect(rows.sort()).toEqual(UNION);
  });

  it("each code carries the SOL_ prefix", () => {
    for (const name of UNION) expect(name).toMatch(/^SOL_[A-Z0-9_]+$/);
  });
});

describe("isSolanaCosignError", () => {
  const thrown = (() => {
    try {
      getAssociatedTokenAccountAddress({ owner: "not an address", mint: "also not" });
    } catch (error) {
      return error;
    }
    throw new Error("not refused");
  })();

  it("accepts an error the package throws, with or without its code", () => {
    expect(isSolanaCosignError(thrown)).toBe(true);
    expect(isSolanaCosignError(thrown, "SOL_INVALID_ADDRESS")).toBe(true);
    expect(isSolanaCosignError(thrown, "SOL_AMOUNT_MISMATCH")).toBe(false);
  });

  it("accepts every code of the union, each only under its own code", () => {
    for (const name of UNION) {
      const error = solanaError(name as SolanaCosignErrorCode, "x", {} as never);
      expect(isSolanaCosignError(error)).toBe(true);
      expect(isSolanaCosignError(error, name as SolanaCosignErrorCode)).toBe(true);
      expect(
        isSolanaCosignError(error, name === "SOL_MEMO_MISMATCH" ? "SOL_MINT_MISMATCH" : "SOL_MEMO_MISMATCH"),
      ).toBe(false);
    }
  });

  it("refuses another package's code, a service error, a look-alike code and anything not an error", () => {
    for (const other of [
      "PERMIT2_SPENDER_MISMATCH",
      "BTC_MECHANISM_MISMATCH",
      "QUOTE_EXPIRED",
      "SOL_",
      "sol_memo_mismatch",
      "XSOL_MEMO_MISMATCH",
      "SOL_MEMO_MISMATCH\n",
      "SOL_MEMO MISMATCH",
    ]) {
      const error = new SwapIntentError(other, "x");
      expect(isSwapIntentError(error)).toBe(true);
      expect(isSolanaCosignError(error), other).toBe(false);
    }
    for (const value of [
      new Error("SOL_AMOUNT_MISMATCH"),
      { code: "SOL_AMOUNT_MISMATCH" },
      null,
      undefined,
      "SOL_AMOUNT_MISMATCH",
    ])
      expect(isSolanaCosignError(value)).toBe(false);
    expect(isSolanaCosignError(new SwapIntentError("toString", "x"))).toBe(false);
    expect(isSolanaCosignError(new SwapIntentError("__proto__", "x"))).toBe(false);
  });

  it("goes by the exact list, not the SOL_ prefix: a code this copy does not know is not a Solana error", () => {
    const newer = new SwapIntentError("SOL_A_CODE_ADDED_LATER", "x");
    expect(isSwapIntentError(newer)).toBe(true);
    expect(isSolanaCosignError(newer)).toBe(false);
    expect(isSolanaCosignError(newer, "SOL_MEMO_MISMATCH")).toBe(false);
    expect(isSolanaCosignError(newer, "SOL_A_CODE_ADDED_LATER" as SolanaCosignErrorCode)).toBe(false);
  });

  it("the factory keeps code, message, details and cause, and the details reach the message", () => {
    const cause = new Error("inner");
    const error = solanaError("SOL_AMOUNT_MISMATCH", "Amount differs.", { expected: 5n, actual: 6n }, cause);
    expect(error).toBeInstanceOf(SwapIntentError);
    expect(error.code).toBe("SOL_AMOUNT_MISMATCH");
    expect(error.details).toEqual({ expected: 5n, actual: 6n });
    expect(error.cause).toBe(cause);
    expect(error.message).toContain("expected: 5n");
    expect(solanaError("SOL_ESCROW_NOT_SPECIFIED", "x", {}).cause).toBeUndefined();
  });

  it("accepts an error of a duplicated copy of the client, shaped like a swapintent error", () => {
    const copy = Object.assign(new Error("[SOL_MEMO_MISMATCH] x"), {
      name: "SwapIntentError",
      code: "SOL_MEMO_MISMATCH",
      shortMessage: "x",
      details: {},
    });
    expect(isSolanaCosignError(copy, "SOL_MEMO_MISMATCH")).toBe(true);
  });
});
