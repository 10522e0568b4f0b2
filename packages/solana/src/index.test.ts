import { expect, it } from "vitest";

it("exports exactly the public API", async () => {
  expect(Object.keys(await import("./index.js")).sort()).toMatchInlineSnapshot(`
    [
      "ASSOCIATED_TOKEN_PROGRAM_ADDRESS",
      "COMPUTE_BUDGET_PROGRAM_ADDRESS",
      "DEFAULT_ALLOWED_PROGRAMS",
      "MEMO_PROGRAM_ADDRESS",
      "MEMO_V1_PROGRAM_ADDRESS",
      "NATIVE_SOL_ADDRESS",
      "SYSTEM_PROGRAM_ADDRESS",
      "TOKEN_2022_PROGRAM_ADDRESS",
      "TOKEN_PROGRAM_ADDRESS",
      "WRAPPED_SOL_MINT_ADDRESS",
      "getAssociatedTokenAddress",
      "signCosignTransaction",
      "verifyCosignTransaction",
    ]
  `);
});
