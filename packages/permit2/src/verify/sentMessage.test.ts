/**
 * `additional_data.message`, sent by some deployments beside the typed data, is never signed, but when sent it must
 * be the signed message, all of it: a witness or an undeclared member naming anyone else is refused.
 */
import { describe, expect, it } from "vitest";
import { codeOf } from "../../test/codeOf.js";
import { DEADLINE_SECS, EVM, type WireParams } from "../../test/fixtures/buildPermit2Fixture.js";
import { fixtureParametersOf } from "../../test/fixtures/fixtureParametersOf.js";
import { signWithSpies } from "../../test/signWithSpies.js";
import type { VerifyPermit2ApprovalParameters } from "../types.js";
import { verifyPermit2Approval } from "./verifyPermit2Approval.js";

const STRANGER = "bcrt1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l";

/** The message exactly as signed, in wire form (amounts as decimal strings). */
function honestMessage(params: WireParams): Record<string, unknown> {
  return {
    permitted: { token: EVM.token, amount: "2500000" },
    spender: EVM.escrow,
    nonce: String(params.nonce),
    deadline: String(DEADLINE_SECS),
    witness: { ...params.additionalData.witness },
  };
}

function parametersWithMessage(
  change: (message: Record<string, unknown>) => void,
): VerifyPermit2ApprovalParameters {
  return fixtureParametersOf({
    tamper: (p) => {
      const message = honestMessage(p);
      change(message);
      p.additionalData.message = message;
    },
  });
}

const witnessOf = (message: Record<string, unknown>) => message.witness as Record<string, unknown>;

describe("a sent message is the signed message, all of it", () => {
  it("the exact message, or one spelling the same values otherwise (hex case, numbers as strings), is accepted", () => {
    const plain = verifyPermit2Approval(parametersWithMessage(() => {}));
    const respelled = verifyPermit2Approval(
      parametersWithMessage((m) => {
        const w = witnessOf(m);
        w.secretHash = (w.secretHash as string).toUpperCase().replace("0X", "0x");
        w.minDestAmount = 3900;
        m.spender = EVM.escrow.toLowerCase();
      }),
    );
    expect(respelled.digest).toBe(plain.digest);
  });

  it.each([
    [
      "a witness recipient naming a stranger",
      (m: Record<string, unknown>) => {
        witnessOf(m).recipient = STRANGER;
      },
    ],
    [
      "a witness minimum of 1",
      (m: Record<string, unknown>) => {
        witnessOf(m).minDestAmount = "1";
      },
    ],
    [
      "another intent id",
      (m: Record<string, unknown>) => {
        witnessOf(m).intentId = `0x${"00".repeat(31)}01`;
      },
    ],
    [
      "another secret hash",
      (m: Record<string, unknown>) => {
        witnessOf(m).secretHash = `0x${"cd".repeat(32)}`;
      },
    ],
    [
      "another destination chain",
      (m: Record<string, unknown>) => {
        witnessOf(m).destChain = "5";
      },
    ],
    [
      "another destination token",
      (m: Record<string, unknown>) => {
        witnessOf(m).destToken = "BTC";
      },
    ],
    [
      "a witness without its maximum",
      (m: Record<string, unknown>) => {
        delete witnessOf(m).maxDestAmount;
      },
    ],
    [
      "an undeclared witness field",
      (m: Record<string, unknown>) => {
        witnessOf(m).refundTo = STRANGER;
      },
    ],
    [
      "no witness",
      (m: Record<string, unknown>) => {
        delete m.witness;
      },
    ],
    [
      "a witness that is a string",
      (m: Record<string, unknown>) => {
        m.witness = STRANGER;
      },
    ],
    [
      "an undeclared sibling member",
      (m: Record<string, unknown>) => {
        m.recipient = STRANGER;
      },
    ],
    [
      "an undeclared permitted member",
      (m: Record<string, unknown>) => {
        (m.permitted as Record<string, unknown>).to = STRANGER;
      },
    ],
  ])("%s: PERMIT2_MESSAGE_MISMATCH, no wallet asked", async (_name, change) => {
    const parameters = parametersWithMessage(change);
    expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_MESSAGE_MISMATCH");
    expect(await signWithSpies(parameters, "evm")).toEqual({ code: "PERMIT2_MESSAGE_MISMATCH", calls: 0 });
  });
});
