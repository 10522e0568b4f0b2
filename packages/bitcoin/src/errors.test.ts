import { readdirSync, readFileSync } from "node:fs";
import { SwapIntentError } from "@swapintent/client";
import { describe, expect, it } from "vitest";
import { createBitcoinError, isBitcoinError, listBitcoinErrorCodes, signingFailed } from "./errors.js";

const srcDir = new URL(".", import.meta.url);
const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

/** Every code a `createBitcoinError("BTC_…"` call in a source file (not a test) throws. */
function thrownCodes(): Set<string> {
  const codes = new Set<string>();
  for (const name of readdirSync(srcDir, { recursive: true }) as string[]) {
    if (!name.endsWith(".ts") || /\.(test|test-d|bench)\.ts$/.test(name)) continue;
    const text = readFileSync(new URL(name, srcDir), "utf8");
    for (const match of text.matchAll(/createBitcoinError\(\s*"([A-Z0-9_]+)"/g)) codes.add(match[1]!);
  }
  return codes;
}

/** Every code in the first column of the README's code table. */
function documentedCodes(): Set<string> {
  return new Set([...readme.matchAll(/^\| `([A-Z0-9_]+)`\s*\|/gm)].map((m) => m[1]!));
}

describe("error codes", () => {
  it("every code of the union is thrown in src and documented in the README table, and nothing else is", () => {
    const union = [...listBitcoinErrorCodes()].sort();
    expect(union.length).toBeGreaterThan(30);
    expect([...thrownCodes()].sort()).toEqual(union);
    expect([...documentedCodes()].sort()).toEqual(union);
  });

  it("every code carries the package prefix", () => {
    for (const code of listBitcoinErrorCodes()) expect(code).toMatch(/^BTC_[A-Z0-9_]+$/);
  });
});

describe("isBitcoinError", () => {
  const feeTooHigh = createBitcoinError("BTC_FEE_TOO_HIGH", "The fee is above the cap.", {
    feeLots: 60_000n,
    estimatedVsize: 150n,
    minFeeRateSatPerVbyte: 1n,
    maxFeeLots: 50_000n,
    maxFeeRateSatPerVbyte: 200n,
    maxFeeBps: 1_000,
  });

  it("accepts this package's errors, with or without the code asked about", () => {
    expect(isBitcoinError(feeTooHigh)).toBe(true);
    expect(isBitcoinError(feeTooHigh, "BTC_FEE_TOO_HIGH")).toBe(true);
    expect(isBitcoinError(feeTooHigh, "BTC_FEE_TOO_LOW")).toBe(false);
  });

  it("refuses other packages' errors, plain errors and non-errors", () => {
    expect(isBitcoinError(new SwapIntentError("PERMIT2_SPENDER_MISMATCH", "x"))).toBe(false);
    expect(isBitcoinError(new SwapIntentError("QUOTE_EXPIRED", "x"))).toBe(false);
    expect(isBitcoinError(new SwapIntentError("BTC_INTENT_NOT_HTLC", "x"))).toBe(false);
    expect(isBitcoinError(new Error("BTC_FEE_TOO_HIGH"))).toBe(false);
    expect(isBitcoinError({ code: "BTC_FEE_TOO_HIGH" })).toBe(false);
    expect(isBitcoinError(null)).toBe(false);
    expect(isBitcoinError("BTC_FEE_TOO_HIGH")).toBe(false);
  });

  it("accepts an error shaped like ours from a duplicated copy of the client", () => {
    const copy = Object.assign(new Error("[BTC_FEE_TOO_HIGH] x"), {
      name: "SwapIntentError",
      code: "BTC_FEE_TOO_HIGH",
      shortMessage: "x",
      details: {},
    });
    expect(isBitcoinError(copy, "BTC_FEE_TOO_HIGH")).toBe(true);
  });
});

describe("signingFailed: what a signer threw, as this package's error", () => {
  it("passes an error this copy created as it is", () => {
    const own = createBitcoinError("BTC_WALLET_REJECTED", "refused", {
      wallet: "unisat",
      code: 4001,
      message: null,
    });
    expect(signingFailed("signPsbt", own)).toBe(own);
  });

  it("wraps an error shaped like ours (any BTC_* code, a client SwapIntentError) as BTC_SIGNING_FAILED, cause kept", () => {
    for (const thrown of [
      new SwapIntentError("BTC_SIGNING_FAILED", "x"),
      new SwapIntentError("BTC_SIGNING_ABORTED", "x", { details: { stage: "whileSigning" } }),
      { name: "SwapIntentError", code: "BTC_FEE_TOO_HIGH", shortMessage: "x", details: {} },
      "refused",
      undefined,
    ]) {
      const error = signingFailed("signer", thrown);
      expect(isBitcoinError(error, "BTC_SIGNING_FAILED")).toBe(true);
      expect(error).not.toBe(thrown);
      expect((error as { details: unknown; cause: unknown }).details).toEqual({ step: "signer" });
      expect((error as { cause: unknown }).cause).toBe(thrown);
    }
  });
});
