import { describe, expect, it } from "vitest";
import { codeOf } from "../../test/codeOf.js";
import { USER_PRIVATE_KEY } from "../../test/fixtures/buildPermit2Fixture.js";
import { DESTINATION, parametersOf } from "../../test/fixtures/parametersOf.js";
import { signWithSpies } from "../../test/signWithSpies.js";
import type { Permit2DestinationExpectation } from "../types.js";
import { verifyPermit2Approval } from "./verifyPermit2Approval.js";

/** The attack: destination decimals lowered 8 -> 6 and the lots divided by 100, witness consistent with the quote. */
const lowered = {
  witness: { minDestAmount: "39", maxDestAmount: "41" },
  quote: { destAmountDecimals: 6, minDestAmountLots: 39n, maxDestAmountLots: 41n },
};

describe("destination side pinned by the wallet (expected.destination)", () => {
  it("accepts the sandbox's permit when the destination equals the wallet's facts, and says so", () => {
    const { summary } = verifyPermit2Approval(parametersOf());
    expect(summary.sources.destination).toBe("wallet");
    expect(summary.destDecimals).toBe(8);
    expect(summary.lines[1]).toBe(
      "Receive at least 0.000039 (at most 0.000041) of btc on network 4 (3900 to 4100 lots of 8 decimals)",
    );
    expect(summary.lines[1]).not.toContain("not checked by the wallet");
  });

  it("refuses lowered destination decimals with lots lowered alike: PERMIT2_DEST_DECIMALS_MISMATCH", () => {
    const parameters = parametersOf({ witness: lowered.witness }, lowered.quote);
    expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_DEST_DECIMALS_MISMATCH");
  });

  it("refuses the same attack through the least-accepted amount alone: PERMIT2_MIN_AMOUNT_TOO_LOW", () => {
    // A wallet that knows only the least it accepts, in lots of the decimals it knows (6 here, as the service says).
    const parameters = parametersOf({ witness: lowered.witness }, lowered.quote, {
      ...DESTINATION,
      decimals: 6,
      minAmountLots: 40n,
    });
    expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_MIN_AMOUNT_TOO_LOW");
  });

  it("accepts a signed minimum above the least the user accepts, refuses one lot below", () => {
    expect(
      verifyPermit2Approval(parametersOf({}, {}, { ...DESTINATION, minAmountLots: 3_899n })).summary
        .minDestAmountLots,
    ).toBe(3_900n);
    expect(
      codeOf(() => verifyPermit2Approval(parametersOf({}, {}, { ...DESTINATION, minAmountLots: 3_901n }))),
    ).toBe("PERMIT2_MIN_AMOUNT_TOO_LOW");
  });

  it("refuses a maximum below the minimum, witness and quote alike (found by the generative test): PERMIT2_MAX_AMOUNT_MISMATCH", () => {
    const parameters = parametersOf({ witness: { maxDestAmount: "0" } }, { maxDestAmountLots: 0n });
    expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_MAX_AMOUNT_MISMATCH");
    const equal = parametersOf({ witness: { maxDestAmount: "3900" } }, { maxDestAmountLots: 3_900n });
    expect(verifyPermit2Approval(equal).summary.maxDestAmountLots).toBe(3_900n);
  });

  it("refuses another destination network or token, even when witness and quote agree", () => {
    const otherChain = parametersOf({ witness: { destChain: "5" } }, { destChain: 5 });
    expect(codeOf(() => verifyPermit2Approval(otherChain))).toBe("PERMIT2_DEST_CHAIN_MISMATCH");
    const otherToken = parametersOf({ witness: { destToken: "BTCX" } }, { destToken: "BTCX" });
    expect(codeOf(() => verifyPermit2Approval(otherToken))).toBe("PERMIT2_DEST_TOKEN_MISMATCH");
  });

  it("without expected.destination, marks every destination fact as the service's word", () => {
    const { summary } = verifyPermit2Approval(
      parametersOf({ witness: lowered.witness }, lowered.quote, null),
    );
    expect(summary.sources).toEqual({
      sourceToken: "service",
      sourceAmount: "service",
      sourceDecimals: "service",
      spender: "wallet",
      destination: "service",
    });
    // The lots lead; the formatted amount carries the service's decimals and the mark.
    expect(summary.lines[1]).toBe(
      "Receive at least 39 lots (at most 41 lots) of btc on network 4, 0.000039 to 0.000041 with 6 decimals [not checked by the wallet, as the service reports it: network, token, amounts, decimals]",
    );
    expect(summary.lines[0]).toMatch(
      /2\.5 of token .* \(2500000 lots\) \[not checked by the wallet, as the service reports it: token, amount, decimals\]$/,
    );
  });

  it.each([
    ["not an object", "4"],
    ["a fractional network", { ...DESTINATION, network: 4.5 }],
    ["an empty token", { ...DESTINATION, token: "" }],
    ["decimals 256", { ...DESTINATION, decimals: 256 }],
    ["a number as minAmountLots", { ...DESTINATION, minAmountLots: 3900 }],
    ["a negative minAmountLots", { ...DESTINATION, minAmountLots: -1n }],
  ])("refuses an expected.destination that is %s: PERMIT2_EXPECTED_INVALID", (_, destination) => {
    const parameters = parametersOf({}, {}, destination as unknown as Permit2DestinationExpectation);
    expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_EXPECTED_INVALID");
  });

  it.each(["evm", "tron"] as const)(
    "%s signers never call the key for the lowered destination",
    async (chain) => {
      const parameters = parametersOf({ chain, witness: lowered.witness }, lowered.quote);
      expect(await signWithSpies(parameters, chain)).toEqual({
        code: "PERMIT2_DEST_DECIMALS_MISMATCH",
        calls: 0,
      });
    },
  );
});

it("the fixture's user key is anvil's first dev key (the spies above stand in for it)", () => {
  expect(USER_PRIVATE_KEY).toMatch(/^0x[0-9a-f]{64}$/);
});
