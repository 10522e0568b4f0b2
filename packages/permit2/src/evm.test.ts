import { expect, it } from "vitest";

it("exports exactly the public API of the evm entry", async () => {
  expect(Object.keys(await import("./evm.js")).sort()).toMatchInlineSnapshot(`
    [
      "CANONICAL_PERMIT2_ADDRESS",
      "assertPermit2Allowance",
      "getPermit2Allowance",
      "isPermit2Error",
      "normalizeSignature",
      "signPermit2Approval",
      "verifyPermit2Approval",
    ]
  `);
});
