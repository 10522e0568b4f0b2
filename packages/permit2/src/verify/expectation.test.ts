/**
 * The wallet's own input (`expected` and the options) is a caller's mistake when malformed: one code,
 * `PERMIT2_EXPECTED_INVALID`, for every field, distinct from `PERMIT2_PARAMS_INVALID` (what the service sent)
 * and from the mismatch codes (a well-formed fact that differs). Each refusal happens before any key is asked.
 */
import { describe, expect, it } from "vitest";
import { codeOf } from "../../test/codeOf.js";
import { buildPermit2Fixture, USER_ADDRESS } from "../../test/fixtures/buildPermit2Fixture.js";
import { signWithSpies } from "../../test/signWithSpies.js";
import type { VerifyPermit2ApprovalParameters } from "../types.js";
import { verifyPermit2Approval } from "./verifyPermit2Approval.js";

type Chain = "evm" | "tron";

function parametersOf(
  chain: Chain,
  expectedChanges: Record<string, unknown>,
): VerifyPermit2ApprovalParameters {
  const f = buildPermit2Fixture({ chain });
  return {
    intent: f.intent,
    quote: f.quote,
    expected: { ...f.expected, ...expectedChanges } as VerifyPermit2ApprovalParameters["expected"],
    allowedPermit2Addresses: f.allowedPermit2Addresses,
    nowMs: f.nowMs,
  };
}

/** Each malformed field of `expected`, as a caller bug would pass it. */
const MALFORMED_EXPECTATIONS: [string, Record<string, unknown>][] = [
  ["chainId missing", { chainId: undefined }],
  ["chainId 0", { chainId: 0 }],
  ["chainId negative", { chainId: -1 }],
  ["chainId fractional", { chainId: 1.5 }],
  ["chainId a word", { chainId: "mainnet" }],
  ["recipient missing", { recipient: undefined }],
  ["recipient empty", { recipient: "" }],
  ["recipient a number", { recipient: 42 }],
  ["spender missing", { spender: undefined }],
  ["spender not an address", { spender: "escrow" }],
  ["spender { unchecked: false }", { spender: { unchecked: false } }],
  ["owner a number", { owner: 7 }],
  ["sourceToken not an address", { sourceToken: "usdc" }],
  ["sourceToken a number", { sourceToken: 1 }],
  ["sourceAmountLots a number", { sourceAmountLots: 2_500_000 }],
  ["sourceAmountLots zero", { sourceAmountLots: 0n }],
  ["sourceAmountLots negative", { sourceAmountLots: -1n }],
  ["sourceAmountLots above uint256", { sourceAmountLots: 2n ** 256n }],
  ["sourceDecimals fractional", { sourceDecimals: 6.5 }],
  ["sourceDecimals 256", { sourceDecimals: 256 }],
  ["sourceDecimals a string", { sourceDecimals: "6" }],
  ["destination a string", { destination: "btc" }],
];

describe("a malformed expectation is the caller's mistake: PERMIT2_EXPECTED_INVALID", () => {
  it.each(MALFORMED_EXPECTATIONS)("%s", async (_, change) => {
    for (const chain of ["evm", "tron"] as const) {
      const parameters = parametersOf(chain, change);
      expect(
        codeOf(() => verifyPermit2Approval(parameters)),
        chain,
      ).toBe("PERMIT2_EXPECTED_INVALID");
      expect(await signWithSpies(parameters, chain)).toEqual({ code: "PERMIT2_EXPECTED_INVALID", calls: 0 });
    }
  });

  it("chainType unknown (verify only: the signers set chainType themselves)", () => {
    for (const chainType of ["solana", "EVM", 1])
      expect(codeOf(() => verifyPermit2Approval(parametersOf("evm", { chainType })))).toBe(
        "PERMIT2_EXPECTED_INVALID",
      );
  });

  it("expected missing, or not an object; parameters not an object", () => {
    const base = parametersOf("evm", {});
    for (const expected of [undefined, null, "x", []])
      expect(
        codeOf(() =>
          verifyPermit2Approval({ ...base, expected } as unknown as VerifyPermit2ApprovalParameters),
        ),
      ).toBe("PERMIT2_EXPECTED_INVALID");
    expect(codeOf(() => verifyPermit2Approval(null as unknown as VerifyPermit2ApprovalParameters))).toBe(
      "PERMIT2_EXPECTED_INVALID",
    );
  });

  it("a well-formed fact that differs is still its mismatch code, not EXPECTED_INVALID", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ chainId: 2 }, "PERMIT2_CHAIN_ID_MISMATCH"],
      [{ recipient: "bcrt1qother" }, "PERMIT2_RECIPIENT_MISMATCH"],
      [{ spender: USER_ADDRESS }, "PERMIT2_SPENDER_MISMATCH"],
      [{ sourceToken: USER_ADDRESS }, "PERMIT2_TOKEN_MISMATCH"],
      [{ sourceAmountLots: 1n }, "PERMIT2_AMOUNT_MISMATCH"],
      [{ sourceDecimals: 18 }, "PERMIT2_DECIMALS_MISMATCH"],
      [{ chainType: "tron" }, "PERMIT2_CHAIN_TYPE_MISMATCH"],
    ];
    for (const [change, code] of cases)
      expect(
        codeOf(() => verifyPermit2Approval(parametersOf("evm", change))),
        code,
      ).toBe(code);
  });

  it("what the service sent stays PERMIT2_PARAMS_INVALID", () => {
    const base = parametersOf("evm", {});
    const intent = structuredClone(base.intent);
    (intent.paramsToSign as { additionalData: Record<string, unknown> }).additionalData.witness = "w";
    expect(codeOf(() => verifyPermit2Approval({ ...base, intent }))).toBe("PERMIT2_PARAMS_INVALID");
    expect(
      codeOf(() => verifyPermit2Approval({ ...base, quote: { ...base.quote, destAmountDecimals: 300 } })),
    ).toBe("PERMIT2_PARAMS_INVALID");
  });
});
