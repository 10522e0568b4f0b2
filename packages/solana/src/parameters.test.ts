import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AMOUNT,
  type Chain,
  codeOf,
  compileHex,
  createChain,
  honestInstructions,
  intentFor,
  quoteFor,
} from "../test/fixture.js";
import { transactionTools } from "../test/transactionTools.js";
import {
  type VerifyCosignTransactionParameters,
  verifyCosignTransaction,
} from "./verifyCosignTransaction.js";

let chain: Chain;
beforeAll(async () => {
  chain = await createChain();
});
beforeEach(() => chain.svm.expireBlockhash());

const { params } = transactionTools(() => chain);

describe("verifyCosignTransaction refuses bad parameters", () => {
  it("an intent of another approval mechanism (SOL_MECHANISM_MISMATCH)", () => {
    const hex = compileHex(chain, honestInstructions(chain));
    for (const approvalMechanism of ["permit2", "htlc", "Cosign", undefined]) {
      const other = {
        ...intentFor(hex),
        approvalMechanism,
      } as unknown as VerifyCosignTransactionParameters["intent"];
      expect(
        codeOf(() => verifyCosignTransaction(params(hex, { intent: other }))),
        String(approvalMechanism),
      ).toBe("SOL_MECHANISM_MISMATCH");
    }
  });

  it("a non-positive or non-bigint amount, a negative cap (SOL_INVALID_PARAMETERS)", () => {
    const hex = compileHex(chain, honestInstructions(chain));
    expect(codeOf(() => verifyCosignTransaction(params(hex, { quote: quoteFor(chain, 0n) })))).toBe(
      "SOL_INVALID_PARAMETERS",
    );
    const floaty = { sourceToken: chain.mint as string, sourceAmountLots: 250000 as unknown as bigint };
    expect(codeOf(() => verifyCosignTransaction(params(hex, { quote: floaty })))).toBe(
      "SOL_INVALID_PARAMETERS",
    );
    expect(codeOf(() => verifyCosignTransaction(params(hex, { maxNativeOutflowLamports: -1n })))).toBe(
      "SOL_INVALID_PARAMETERS",
    );
  });

  it("addresses that are not base58 32-byte keys (SOL_INVALID_ADDRESS)", () => {
    const hex = compileHex(chain, honestInstructions(chain));
    expect(codeOf(() => verifyCosignTransaction(params(hex, { userAddress: "0xabc" })))).toBe(
      "SOL_INVALID_ADDRESS",
    );
    expect(codeOf(() => verifyCosignTransaction(params(hex, { escrow: { owner: "l0Ol" } })))).toBe(
      "SOL_INVALID_ADDRESS",
    );
    expect(
      codeOf(() =>
        verifyCosignTransaction(params(hex, { quote: { sourceToken: "USDC", sourceAmountLots: 1n } })),
      ),
    ).toBe("SOL_INVALID_ADDRESS");
  });

  it("a native SOL source is checked as the wrapped SOL mint", () => {
    const hex = compileHex(chain, honestInstructions(chain));
    const native = { sourceToken: "11111111111111111111111111111111", sourceAmountLots: AMOUNT };
    expect(codeOf(() => verifyCosignTransaction(params(hex, { quote: native })))).toBe("SOL_MINT_MISMATCH");
  });
});
