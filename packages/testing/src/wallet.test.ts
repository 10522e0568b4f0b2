import { describe, expect, it } from "vitest";
import { readFact } from "./wallet.js";

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
