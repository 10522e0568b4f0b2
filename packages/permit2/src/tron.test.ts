import { expect, it } from "vitest";

it("exports exactly the public API of the tron entry", async () => {
  expect(Object.keys(await import("./tron.js")).sort()).toMatchInlineSnapshot(`
    [
      "TRON_CHAIN_ID_MASK",
      "formatTronAddress",
      "isPermit2Error",
      "normalizeSignature",
      "parseTronAddress",
      "signTronPermit2Approval",
      "verifyPermit2Approval",
    ]
  `);
});
