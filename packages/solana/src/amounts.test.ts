import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type Chain,
  codeOf as codeOfSync,
  compileHex,
  createChain,
  DECIMALS,
  getTransferCheckedInstruction,
  honestInstructions,
  userSigner,
  verifyParams,
} from "../test/fixture.js";
import { verifyAndDecode } from "./verifyCosignTransaction.js";

let chain: Chain;
beforeAll(async () => {
  chain = await createChain();
});
beforeEach(() => chain.svm.expireBlockhash());

describe("amounts at the u64 edge", () => {
  it("a quote above u64 (which no token amount can be) is refused, even when two transfers add up to it", async () => {
    const half = 1n << 63n;
    const transfer = (amount: bigint) =>
      getTransferCheckedInstruction({
        source: chain.userAta,
        mint: chain.mint,
        destination: chain.escrowAta,
        authority: userSigner(chain),
        amount,
        decimals: DECIMALS,
      });
    const [create, , memo] = honestInstructions(chain);
    const hex = compileHex(chain, [create!, transfer(half), transfer(half), memo!]);
    const quote = { sourceToken: chain.mint as string, sourceAmountLots: 1n << 64n };
    expect(codeOfSync(() => verifyAndDecode({ ...verifyParams(chain, hex), quote }))).toBe(
      "SOL_INVALID_PARAMETERS",
    );
    // The largest u64 itself is a valid quote (refused here only because the transfers add up to more).
    const max = { sourceToken: chain.mint as string, sourceAmountLots: (1n << 64n) - 1n };
    expect(codeOfSync(() => verifyAndDecode({ ...verifyParams(chain, hex), quote: max }))).toBe(
      "SOL_AMOUNT_MISMATCH",
    );
  });
});
