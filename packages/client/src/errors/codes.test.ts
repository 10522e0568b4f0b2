import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatUnits } from "../utils/formatUnits.js";
import { BaseError } from "./baseError.js";
import { type ClientErrorCode, createClientError, isClientError } from "./codes.js";

const srcDir = join(import.meta.dirname, "..");

/** Every source file of the package (no tests, type tests or benchmarks). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.(test|test-d|bench)\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** The codes of the `ClientErrorDetails` interface, read from its source (the type has no runtime form). */
function declaredCodes(): string[] {
  const source = readFileSync(join(srcDir, "errors", "codes.ts"), "utf8");
  const body = source.split("export interface ClientErrorDetails {")[1]!.split("\n}\n")[0]!;
  return [...body.matchAll(/^ {2}([A-Z][A-Z0-9_]+): /gm)].map((m) => m[1]!);
}

/** The codes in the README's error table (the first column of each row, every code written there). */
function readmeCodes(): Set<string> {
  const readme = readFileSync(join(srcDir, "..", "README.md"), "utf8");
  const section = readme.split(/^## Errors$/m)[1]!.split(/^## /m)[0]!;
  const rows = section.split("\n").filter((line) => line.startsWith("| `"));
  return new Set(
    rows.flatMap((row) => [...row.split("|")[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]!)),
  );
}

describe("client error codes", () => {
  const codes = declaredCodes();

  it("reads the 19 codes of ClientErrorDetails", () => {
    expect(codes).toHaveLength(19);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it("every code is raised somewhere in src outside the error module (a string literal of it)", () => {
    const source = sourceFiles(srcDir)
      .filter((file) => !file.endsWith(join("errors", "codes.ts")))
      .map((file) => readFileSync(file, "utf8"))
      .join("\n");
    expect(codes.filter((code) => !source.includes(`"${code}"`))).toEqual([]);
  });

  it("the README table documents exactly the codes of the interface", () => {
    const documented = readmeCodes();
    expect(codes.filter((code) => !documented.has(code))).toEqual([]);
    expect([...documented].filter((code) => !codes.includes(code))).toEqual([]);
  });
});

describe("isClientError", () => {
  const thrown = (() => {
    try {
      formatUnits({ value: 1n, decimals: 256 });
    } catch (error) {
      return error;
    }
  })();

  it("accepts an error the package threw, by any of its codes or none", () => {
    expect(isClientError(thrown)).toBe(true);
    expect(isClientError(thrown, "INVALID_INPUT")).toBe(true);
    expect(isClientError(thrown, "INVALID_OPTIONS")).toBe(false);
    if (isClientError(thrown, "INVALID_INPUT")) expect(thrown.details.field).toBe("decimals");
  });

  it("accepts every code of the interface, built by the factory", () => {
    for (const code of declaredCodes() as ClientErrorCode[]) {
      const error = createClientError(code, "A failure.", {} as never);
      expect(isClientError(error, code)).toBe(true);
      expect(error).toBeInstanceOf(BaseError);
    }
  });

  it("refuses a swapintent error of another package, a lookalike code, and non-errors", () => {
    expect(isClientError(new BaseError("PERMIT2_AMOUNT_MISMATCH", "x"))).toBe(false);
    expect(isClientError(new BaseError("INVALID_INPUTS", "x"))).toBe(false);
    expect(isClientError(new BaseError("invalid_input", "x"))).toBe(false);
    expect(isClientError(new Error("INVALID_INPUT"))).toBe(false);
    expect(isClientError({ code: "INVALID_INPUT" })).toBe(false);
    expect(isClientError(null)).toBe(false);
  });

  it("accepts the error shape from a duplicated copy of the package (brand lost)", () => {
    const clone = { name: "SwapIntentError", code: "RATE_LIMITED", shortMessage: "x", details: {} };
    expect(isClientError(clone, "RATE_LIMITED")).toBe(true);
    expect(isClientError(clone, "TIMEOUT")).toBe(false);
  });
});

describe("createClientError", () => {
  it("keeps code, message, details and cause", () => {
    const cause = new Error("inner");
    const error = createClientError(
      "TIMEOUT",
      "Too slow.",
      { method: "GET", path: "/x", timeoutMs: 5 },
      cause,
    );
    expect(error.code).toBe("TIMEOUT");
    expect(error.shortMessage).toBe("Too slow.");
    expect(error.details).toEqual({ method: "GET", path: "/x", timeoutMs: 5 });
    expect(error.cause).toBe(cause);
  });
});
