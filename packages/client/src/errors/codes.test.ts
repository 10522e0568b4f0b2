import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatLots } from "../utils/formatLots.js";
import {
  type ClientErrorCode,
  clientError,
  createClientError,
  formatClientMessage,
  isClientError,
} from "./codes.js";
import { SwapIntentError } from "./swapIntentError.js";

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
      formatLots({ value: 1n, decimals: 256 });
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
      expect(error).toBeInstanceOf(SwapIntentError);
    }
  });

  it("refuses a swapintent error of another package, a lookalike code, and non-errors", () => {
    expect(isClientError(new SwapIntentError("PERMIT2_AMOUNT_MISMATCH", "x"))).toBe(false);
    expect(isClientError(new SwapIntentError("INVALID_INPUTS", "x"))).toBe(false);
    expect(isClientError(new SwapIntentError("invalid_input", "x"))).toBe(false);
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

describe("clientError", () => {
  it("keeps code, details and cause, and writes the message from them", () => {
    const cause = new Error("inner");
    const error = clientError("TIMEOUT", { method: "GET", path: "/x", timeoutMs: 5 }, cause);
    expect(error.code).toBe("TIMEOUT");
    expect(error.shortMessage).toBe("GET /x: timeout.");
    expect(error.message).toBe("[TIMEOUT] GET /x: timeout.\n  method: GET\n  path: /x\n  timeoutMs: 5");
    expect(error.details).toEqual({ method: "GET", path: "/x", timeoutMs: 5 });
    expect(error.cause).toBe(cause);
  });
});

describe("formatClientMessage", () => {
  it("writes one sentence for every code that is not about a parameter, from the code and the details", () => {
    const request = { method: "POST", path: "/affiliate/v1/intents" };
    const http = { ...request, status: 422, serverMessage: "quote already used" };
    const cases: [ClientErrorCode, object, string][] = [
      ["QUOTE_EXPIRED", { quoteId: "q", expiryMs: 5 }, "Quote expired."],
      ["UNPROCESSABLE", http, "POST /affiliate/v1/intents: unprocessable (HTTP 422): quote already used."],
      [
        "SERVER_ERROR",
        { ...request, status: 503, body: "<html>" },
        "POST /affiliate/v1/intents: server error (HTTP 503).",
      ],
      ["TIMEOUT", { ...request, timeoutMs: 10 }, "POST /affiliate/v1/intents: timeout."],
      ["ABORTED", {}, "Aborted."],
      ["NETWORK_ERROR", request, "POST /affiliate/v1/intents: network error."],
      [
        "REDIRECT_REFUSED",
        { ...request, status: 307 },
        "POST /affiliate/v1/intents: redirect refused (HTTP 307).",
      ],
      [
        "RESPONSE_TOO_LARGE",
        { ...request, status: 200, maxResponseBytes: 10, receivedBytes: 11 },
        "POST /affiliate/v1/intents: response too large (HTTP 200).",
      ],
      ["RESPONSE_INVALID", { ...request, body: "" }, "POST /affiliate/v1/intents: response invalid."],
      [
        "RESPONSE_INVALID",
        { issues: [{ path: "", message: "expected Object" }] },
        "Response invalid (body: expected Object).",
      ],
      [
        "RESPONSE_INVALID",
        { ...request, issues: [{ path: "items.0.status", message: "missing" }] },
        "POST /affiliate/v1/intents: response invalid (items.0.status: missing).",
      ],
      ["WAIT_TIMEOUT", { intentId: "i", timeoutMs: 5, lastStatus: null }, "Wait timeout."],
    ];
    for (const [code, details, message] of cases) expect(formatClientMessage(code, details)).toBe(message);
  });
});
