import { expect, test } from "vitest";

test("exports", async () => {
  expect(Object.keys(await import("./index.js")).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_PRICES",
      "DEFAULT_STABLECOINS",
      "LEG_REJECTION_CODES",
      "LegRejection",
      "SANDBOX_NETWORKS",
      "createOpenApiDocument",
      "isDatabaseError",
      "redactDatabaseUrl",
      "startSandbox",
    ]
  `);
});
