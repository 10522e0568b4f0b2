import { generateKeyPairSigner } from "@solana/kit";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type Chain,
  codeOf as codeOfSync,
  compileHex,
  createChain,
  honestInstructions,
  verifyParams,
} from "../test/fixture.js";
import { verifyAndDecode } from "./verifyCosignTransaction.js";

let chain: Chain;
beforeAll(async () => {
  chain = await createChain();
});
beforeEach(() => chain.svm.expireBlockhash());

describe("lookup table contents", () => {
  it("a table listed twice in lookupTables (two different contents) is refused, whichever order", async () => {
    const table = (await generateKeyPairSigner()).address;
    const hex = compileHex(chain, honestInstructions(chain), {
      lookupTables: { [table]: [chain.escrowAta, chain.mint] },
    });
    const real = { key: table, addresses: [chain.escrowAta, chain.mint] };
    const other = { key: table, addresses: [chain.strangerAta, chain.mint] };
    const verify = (lookupTables: (typeof real)[]) =>
      codeOfSync(() => verifyAndDecode({ ...verifyParams(chain, hex), lookupTables }));
    expect(verify([real])).toBeUndefined();
    expect(verify([real, other])).toBe("SOL_INVALID_PARAMETERS");
    expect(verify([other, real])).toBe("SOL_INVALID_PARAMETERS");
    expect(verify([real, real])).toBe("SOL_INVALID_PARAMETERS");
  });
});
