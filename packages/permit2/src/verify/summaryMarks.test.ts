/**
 * The confirmation lines mark the facts only the service reported once per line, naming each, and never a fact
 * the wallet checked.
 */
import { describe, expect, it } from "vitest";
import { buildPermit2Fixture } from "../../test/fixtures/buildPermit2Fixture.js";
import type { Permit2Expectation } from "../types.js";
import { verifyPermit2Approval } from "./verifyPermit2Approval.js";

const MARK = "not checked by the wallet";

function linesWith(expected: Partial<Permit2Expectation>, withDestination: boolean): string[] {
  const f = buildPermit2Fixture();
  const destination = {
    network: f.quote.destChain,
    token: f.quote.destToken,
    decimals: f.quote.destAmountDecimals,
    minAmountLots: f.quote.minDestAmountLots,
  };
  return verifyPermit2Approval({
    intent: f.intent,
    quote: f.quote,
    expected: { ...f.expected, ...expected, ...(withDestination ? { destination } : {}) },
    allowedPermit2Addresses: f.allowedPermit2Addresses,
    nowMs: f.nowMs,
  }).summary.lines;
}

const count = (line: string) => line.split(MARK).length - 1;

describe("unchecked facts are marked once per line", () => {
  it("no wallet facts at all: each of the first two lines carries exactly one mark naming every unchecked fact", () => {
    const f = buildPermit2Fixture();
    const lines = linesWith({ spender: { unchecked: true } }, false);
    expect(lines.map(count)).toEqual([1, 1, 0, 0, 0]);
    expect(lines[0]).toMatch(
      /^Allow 0x[0-9a-fA-F]{40} to transfer 2\.5 of token 0x[0-9a-fA-F]{40} \(2500000 lots\) \[not checked by the wallet, as the service reports it: spender, token, amount, decimals\]$/,
    );
    expect(lines[0]!.split(" ")[1]!.toLowerCase()).toBe(f.expected.spender.toLowerCase());
    expect(lines[1]).toMatch(
      /\[not checked by the wallet, as the service reports it: network, token, amounts, decimals\]$/,
    );
  });

  it("names only what the wallet left unchecked, and no mark once the wallet checked everything", () => {
    const f = buildPermit2Fixture();
    const some = linesWith({ sourceToken: f.quote.sourceToken }, true);
    expect(some.map(count)).toEqual([1, 0, 0, 0, 0]);
    expect(some[0]).toMatch(/ \[not checked by the wallet, as the service reports it: amount, decimals\]$/);
    const all = linesWith(
      { sourceToken: f.quote.sourceToken, sourceAmountLots: f.quote.sourceAmountLots, sourceDecimals: 6 },
      true,
    );
    expect(all.map(count)).toEqual([0, 0, 0, 0, 0]);
    expect(all.join("\n")).not.toContain("service reports");
  });
});
