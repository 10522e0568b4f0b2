/**
 * The recipient and the destination token are addresses of the destination chain: each compares by the rule of
 * that chain's own format, taken from the wallet's catalogue (`expected.destination.networkType`), never from the
 * look of the string. Each case is a spelling a service could sign in place of the one the user entered.
 */
import { describe, expect, it } from "vitest";
import { codeOf } from "../../test/codeOf.js";
import { buildPermit2Fixture, RECIPIENT } from "../../test/fixtures/buildPermit2Fixture.js";
import { signWithSpies } from "../../test/signWithSpies.js";
import type { VerifyPermit2ApprovalParameters } from "../types.js";
import { verifyPermit2Approval } from "./verifyPermit2Approval.js";

/** A valid Solana address (32 bytes) in one case with inner `1`s; its upper-case twin is another valid address. */
const SOLANA_SINGLE_CASE = "3dpeq6mhydgakg1beq2ktz18hh9788wfkgyt8mbq1kbw";
/** A Tron address (base58check): its case-swapped twin is another string, never the same account. */
const TRON_RECIPIENT = "TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY";
/** A legacy (base58check) Bitcoin address. */
const BITCOIN_LEGACY = "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2";
const EVM_CHECKSUMMED = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

/** Parameters whose witness names `signed` (recipient, or destination token with the quote's), the wallet `own`. */
function parametersWith(input: {
  field: "recipient" | "destToken";
  signed: string;
  own: string;
  networkType?: string | undefined;
}): VerifyPermit2ApprovalParameters {
  const { field, signed, own, networkType } = input;
  const f = buildPermit2Fixture({ witness: { [field]: signed } });
  const quote = field === "destToken" ? { ...f.quote, destToken: signed } : f.quote;
  const destination = {
    network: quote.destChain,
    networkType,
    token: field === "destToken" ? own : quote.destToken,
    decimals: quote.destAmountDecimals,
    minAmountLots: quote.minDestAmountLots,
  };
  return {
    intent: f.intent,
    quote,
    expected: { ...f.expected, recipient: field === "recipient" ? own : f.expected.recipient, destination },
    allowedPermit2Addresses: f.allowedPermit2Addresses,
    nowMs: f.nowMs,
  };
}

const refusal = {
  recipient: "PERMIT2_RECIPIENT_MISMATCH",
  destToken: "PERMIT2_DEST_TOKEN_MISMATCH",
} as const;

describe.each(["recipient", "destToken"] as const)("the %s compares by its chain's format", (field) => {
  const verify = (signed: string, own: string, networkType?: string) =>
    verifyPermit2Approval(parametersWith({ field, signed, own, networkType }));

  it("a single-case Solana address with an inner 1 never matches its upper-case twin (base58 is exact)", async () => {
    const twin = SOLANA_SINGLE_CASE.toUpperCase();
    expect(() => verify(SOLANA_SINGLE_CASE, SOLANA_SINGLE_CASE, "SOLANA")).not.toThrow();
    for (const networkType of ["SOLANA", undefined, "BITCOIN", "SOMETHING_NEW"]) {
      expect(
        codeOf(() => verify(twin, SOLANA_SINGLE_CASE, networkType)),
        String(networkType),
      ).toBe(refusal[field]);
      expect(
        codeOf(() => verify(SOLANA_SINGLE_CASE, twin, networkType)),
        String(networkType),
      ).toBe(refusal[field]);
    }
    // no wallet is asked for a twin
    const parameters = parametersWith({
      field,
      signed: twin,
      own: SOLANA_SINGLE_CASE,
      networkType: "SOLANA",
    });
    expect(await signWithSpies(parameters, "evm")).toEqual({ code: refusal[field], calls: 0 });
  });

  it("a Tron address compares exactly (base58check)", () => {
    expect(() => verify(TRON_RECIPIENT, TRON_RECIPIENT, "TRON")).not.toThrow();
    for (const twin of [TRON_RECIPIENT.toLowerCase(), TRON_RECIPIENT.toUpperCase()])
      expect(
        codeOf(() => verify(twin, TRON_RECIPIENT, "TRON")),
        twin,
      ).toBe(refusal[field]);
  });

  it("on Bitcoin a real bech32 address matches in either case, a legacy base58 one only exactly", () => {
    expect(() => verify(RECIPIENT.toUpperCase(), RECIPIENT, "BITCOIN")).not.toThrow();
    expect(() => verify(RECIPIENT, RECIPIENT.toUpperCase(), "BITCOIN")).not.toThrow();
    expect(codeOf(() => verify(BITCOIN_LEGACY.toLowerCase(), BITCOIN_LEGACY, "BITCOIN"))).toBe(
      refusal[field],
    );
    // one flipped character breaks the bech32 checksum: not the same address in another case
    const flipped = `${RECIPIENT.slice(0, -1)}${RECIPIENT.endsWith("q") ? "p" : "q"}`;
    expect(codeOf(() => verify(flipped.toUpperCase(), RECIPIENT, "BITCOIN"))).toBe(refusal[field]);
  });

  it("on EVM hex compares by its bytes, a mixed-case spelling only with a valid checksum", () => {
    const lower = EVM_CHECKSUMMED.toLowerCase();
    expect(() => verify(lower, EVM_CHECKSUMMED, "EVM")).not.toThrow();
    expect(() => verify(EVM_CHECKSUMMED, lower, "EVM")).not.toThrow();
    expect(() => verify(lower.toUpperCase().replace("0X", "0x"), lower, "EVM")).not.toThrow();
    // a wrong checksum is not a spelling of the address, not even of itself
    const badChecksum = EVM_CHECKSUMMED.replace("C51812dc", "c51812dc");
    expect(codeOf(() => verify(badChecksum, lower, "EVM"))).toBe(refusal[field]);
    expect(codeOf(() => verify(lower, badChecksum, "EVM"))).toBe(refusal[field]);
    expect(codeOf(() => verify(badChecksum, badChecksum, "EVM"))).toBe(refusal[field]);
    // without the network's type the strings compare exactly
    expect(codeOf(() => verify(lower, EVM_CHECKSUMMED))).toBe(refusal[field]);
  });
});

describe("expected.destination.networkType is the wallet's own input", () => {
  it.each([["evm"], [""], [7], ["EVM\n"], ["X".repeat(33)]])(
    "%j: PERMIT2_EXPECTED_INVALID",
    (networkType) => {
      const parameters = parametersWith({ field: "recipient", signed: RECIPIENT, own: RECIPIENT });
      const destination = { ...parameters.expected.destination!, networkType: networkType as string };
      expect(
        codeOf(() =>
          verifyPermit2Approval({ ...parameters, expected: { ...parameters.expected, destination } }),
        ),
      ).toBe("PERMIT2_EXPECTED_INVALID");
    },
  );
});
