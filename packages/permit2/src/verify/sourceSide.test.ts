/**
 * The source side: a source token that is a contract of the swap (the escrow, Permit2) is refused.
 */
import { describe, expect, it } from "vitest";
import { codeOf } from "../../test/codeOf.js";
import { buildPermit2Fixture } from "../../test/fixtures/buildPermit2Fixture.js";
import { parametersOf } from "../../test/fixtures/parametersOf.js";
import { signWithSpies } from "../../test/signWithSpies.js";
import { verifyPermit2Approval } from "./verifyPermit2Approval.js";

describe("a source token that is a contract of the swap", () => {
  it("the escrow (spender) or the Permit2 contract as the token: PERMIT2_TOKEN_MISMATCH, no key used", async () => {
    for (const chain of ["evm", "tron"] as const) {
      const f = buildPermit2Fixture({ chain });
      const params = f.intent.paramsToSign as unknown as Record<string, string>;
      for (const token of [params.escrowContractAddress!, params.permit2ContractAddress!]) {
        const parameters = { ...parametersOf({ chain }), quote: { ...f.quote, sourceToken: token } };
        expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_TOKEN_MISMATCH");
        expect(await signWithSpies(parameters, chain)).toEqual({ code: "PERMIT2_TOKEN_MISMATCH", calls: 0 });
      }
    }
  });
});
