import { expect, it } from "vitest";

it("exports exactly the public API of the index entry", async () => {
  expect(Object.keys(await import("./index.js")).sort()).toMatchInlineSnapshot(`
    [
      "CANONICAL_PERMIT2_ADDRESS",
      "DEFAULT_MAX_DEADLINE_SECS",
      "PERMIT2_PRIMARY_TYPE",
      "PERMIT2_WITNESS_TYPE_STUB",
      "TRON_CHAIN_ID_MASK",
      "formatTronAddress",
      "getPermit2WitnessTypeString",
      "isPermit2Error",
      "normalizeSignature",
      "parseTronAddress",
      "verifyPermit2Approval",
    ]
  `);
});
