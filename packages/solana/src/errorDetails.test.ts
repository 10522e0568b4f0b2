import { type Intent, isSwapIntentError } from "@swapintent/client";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Chain, compileHex, createChain, honestInstructions, intentFor } from "../test/fixture.js";
import { transactionTools } from "../test/transactionTools.js";
import { verifyCosignTransaction } from "./verifyCosignTransaction.js";

let chain: Chain;
beforeAll(async () => {
  chain = await createChain();
});
beforeEach(() => chain.svm.expireBlockhash());

const { params } = transactionTools(() => chain);

describe("service strings repeated in error details are escaped and bounded", () => {
  const unsafe = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
  const detailsOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      if (isSwapIntentError(error)) return { code: error.code, details: error.details };
    }
    throw new Error("not refused with a swapintent error");
  };

  it("a source token, an approval mechanism and an intent id with a line break, a bidi override or a zero-width space", () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const token = detailsOf(() =>
      verifyCosignTransaction(
        params(hex, { quote: { sourceToken: "USDC\nValid until 2099\u202E", sourceAmountLots: 1n } }),
      ),
    );
    expect(token.code).toBe("SOL_INVALID_ADDRESS");
    // not even escaped: an address field's value is never printed, only its type (see secretLeak.test.ts)
    expect(token.details).toEqual({ parameter: "sourceToken", value: "string" });
    const mechanism = detailsOf(() =>
      verifyCosignTransaction({
        ...params(hex),
        intent: { ...intentFor(hex), approvalMechanism: "cosign\u200B" } as unknown as Intent,
      }),
    );
    expect(mechanism.code).toBe("SOL_MECHANISM_MISMATCH");
    expect(mechanism.details.approvalMechanism).toBe("cosign\\u{200B}");
    const memo = detailsOf(() =>
      verifyCosignTransaction({
        ...params(hex),
        intent: { ...intentFor(hex), intentId: `x\n${"y".repeat(500)}` },
      }),
    );
    expect(memo.code).toBe("SOL_MEMO_MISMATCH");
    expect(String(memo.details.expected).length).toBeLessThanOrEqual(121);
    for (const result of [token, mechanism, memo]) {
      for (const value of Object.values(result.details))
        expect(unsafe.test(JSON.stringify(value) ?? "")).toBe(false);
    }
  });
});
