import { expect, it } from "vitest";

it("exports exactly the public API", async () => {
  expect(Object.keys(await import("./index.js")).sort()).toMatchInlineSnapshot(`
    [
      "BaseError",
      "createBaseClient",
      "createClient",
      "createIntent",
      "createRequestSigner",
      "formatAmount",
      "formatCanonicalRequest",
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
