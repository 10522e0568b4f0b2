import { expect, it } from "vitest";

it("exports exactly the documented API", async () => {
  expect(Object.keys(await import("./index.js")).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_HTLC_POLICY",
      "NUMS_INTERNAL_KEY_HEX",
      "TAPSCRIPT_LEAF_VERSION",
      "buildHtlcLeaves",
      "createHtlcActions",
      "getUserScripts",
      "isBitcoinError",
      "parseHtlcLeaves",
      "signHtlcPsbt",
      "signHtlcRefund",
      "verifyHtlcPsbt",
    ]
  `);
});

it("@swapintent/bitcoin/wallets exports exactly the three adapters", async () => {
  expect(Object.keys(await import("./wallets.js")).sort()).toEqual([
    "createLeatherWalletSigner",
    "createSatsConnectWalletSigner",
    "createUnisatWalletSigner",
  ]);
});
