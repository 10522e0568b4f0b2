import { describe, expect, it } from "vitest";
import { createSignOnlyWalletBase, readFact } from "./wallet.js";

describe("readFact", () => {
  it("reads a string fact, and a number fact as its decimal text", () => {
    expect(readFact({ rpcUrl: "http://127.0.0.1:8545", chainId: 31337 }, "rpcUrl")).toBe(
      "http://127.0.0.1:8545",
    );
    expect(readFact({ chainId: 31337 }, "chainId")).toBe("31337");
  });

  it.each([{}, { chainId: null }, { chainId: { id: 1 } }, { chainId: true }])("refuses %j", (info) => {
    expect(() => readFact(info, "chainId")).toThrow("chain facts lack `chainId`");
  });
});

describe("createSignOnlyWalletBase", () => {
  it("funds no gas and prepares nothing on chain", async () => {
    const wallet = createSignOnlyWalletBase({ type: "BITCOIN", address: "bcrt1p", publicKeyHex: "02ab" });
    expect(wallet).toMatchObject({
      type: "BITCOIN",
      address: "bcrt1p",
      publicKeyHex: "02ab",
      gasFunding: null,
    });
    expect(await wallet.prepare({ token: "BTC", amountLots: 1n })).toBeNull();
  });
});
