import { expect, it } from "vitest";

it("exports exactly the public API", async () => {
  expect(Object.keys(await import("./index.js")).sort()).toMatchInlineSnapshot(`
    [
      "BaseError",
      "SwapIntentError",
      "createBaseClient",
      "createClient",
      "createIntent",
      "createRequestSigner",
      "createSwapIntentClient",
      "formatAmount",
      "formatCanonicalRequest",
      "formatLots",
      "formatQueryString",
      "formatUnits",
      "getBestQuote",
      "getIntentStatus",
      "getNetworks",
      "getQuoteTimeLeft",
      "getSwapHistory",
      "getTokens",
      "hasErrorCode",
      "isAbortSignalLike",
      "isClientError",
      "isQuoteExpired",
      "isSwapIntentError",
      "isTerminalStatus",
      "iterateSwapHistory",
      "iterateTokens",
      "parseLots",
      "parseUnits",
      "raceAbortSignal",
      "readAbortSignal",
      "stringifyCanonicalJson",
      "submitApproval",
      "terminalStatuses",
      "waitForIntent",
      "watchIntent",
      "wireIntentStatuses",
    ]
  `);
});

it("exports exactly the plumbing of `@swapintent/client/internal`", async () => {
  expect(Object.keys(await import("./internal.js")).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_IGNORABLE_RANGES",
      "UNSAFE_DISPLAY_CHARACTERS",
      "createAbortGuards",
      "hasErrorCode",
      "isAbortSignalLike",
      "raceAbortSignal",
      "readAbortSignal",
      "stringifyCanonicalJson",
    ]
  `);
});

it("each deprecated root name is the very value of its new name", async () => {
  const root = await import("./index.js");
  const internal = await import("./internal.js");
  expect(root.createClient).toBe(root.createSwapIntentClient);
  expect(root.parseUnits).toBe(root.parseLots);
  expect(root.formatUnits).toBe(root.formatLots);
  expect(root.BaseError).toBe(root.SwapIntentError);
  expect(root.raceAbortSignal).toBe(internal.raceAbortSignal);
  expect(root.readAbortSignal).toBe(internal.readAbortSignal);
  expect(root.isAbortSignalLike).toBe(internal.isAbortSignalLike);
  expect(root.stringifyCanonicalJson).toBe(internal.stringifyCanonicalJson);
  expect(root.hasErrorCode).toBe(internal.hasErrorCode);
  const error = new root.BaseError("X", "x");
  expect(error).toBeInstanceOf(root.SwapIntentError);
  expect(root.isSwapIntentError(error)).toBe(true);
});
