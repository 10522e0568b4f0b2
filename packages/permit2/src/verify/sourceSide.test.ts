/**
 * The source side: a source token that is a contract of the swap (the escrow, Permit2) is refused.
 */
import { describe, expect, it } from "vitest";
import { codeOf } from "../../test/codeOf.js";
import { buildPermit2Fixture, DEST_TOKEN } from "../../test/fixtures/buildPermit2Fixture.js";
import { signWithSpies } from "../../test/signWithSpies.js";
import type { Permit2DestinationExpectation, VerifyPermit2ApprovalParameters } from "../types.js";
import { verifyPermit2Approval } from "./verifyPermit2Approval.js";

const DESTINATION: Permit2DestinationExpectation = {
  network: 4,
  token: DEST_TOKEN,
  decimals: 8,
  minAmountLots: 3_900n,
};

function parametersOf(
  options: Parameters<typeof buildPermit2Fixture>[0] = {},
): VerifyPermit2ApprovalParameters {
  const f = buildPermit2Fixture(options);
  return {
    intent: f.intent,
    quote: f.quote,
    expected: { ...f.expected, destination: DESTINATION },
    allowedPermit2Addresses: f.allowedPermit2Addresses,
    nowMs: f.nowMs,
  };
}

/** The intent's `params_to_sign.additional_data`, as mutable JSON. */
function _additionalOf(parameters: {
  intent: VerifyPermit2ApprovalParameters["intent"];
}): Record<string, unknown> {
  return (parameters.intent.paramsToSign as unknown as { additionalData: Record<string, unknown> })
    .additionalData;
}

/** Defines `key` on `target` as an accessor returning `values[i]` on the i-th read (the last one after that). */
function _answerInTurn(target: object, key: string, values: unknown[]): { reads: () => number } {
  let reads = 0;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => values[Math.min(reads++, values.length - 1)],
  });
  return { reads: () => reads };
}

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
