/**
 * What the user confirmed is what gets signed: with `expected.digest` a signer signs only the permit whose digest
 * was shown, never one the intent or quote became since; any other is `PERMIT2_DIGEST_MISMATCH` before a wallet is asked.
 */
import { describe, expect, it } from "vitest";
import { codeOf } from "../../test/codeOf.js";
import { USER_PRIVATE_KEY } from "../../test/fixtures/buildPermit2Fixture.js";
import { parametersOf } from "../../test/fixtures/parametersOf.js";
import { signWithSpies } from "../../test/signWithSpies.js";
import { signPermit2Approval } from "../evm/signPermit2Approval.js";
import type { VerifyPermit2ApprovalParameters } from "../types.js";
import { verifyPermit2Approval } from "./verifyPermit2Approval.js";

describe("what the user confirmed is what gets signed (expected.digest)", () => {
  // The README's flow: verifyPermit2Approval first, show its summary, then call a signer with the same parameters,
  // which verifies again. Between the two the app's intent and quote can change (a second createIntent after a
  // retry or a double click, a reactive store refreshed from the service): the signer then verified and signed a
  // permit the user never saw, as long as it passed the checks (another intent id, deadline, nonce, a minimum
  // still above the floor). The wallet pins what it showed with `expected.digest: verified.digest`.
  const changes: [string, (p: VerifyPermit2ApprovalParameters) => void][] = [
    [
      "an earlier deadline",
      (p) => {
        (p.intent as { deadlineSecs: number }).deadlineSecs -= 600;
      },
    ],
    [
      "another nonce",
      (p) => {
        (p.intent.paramsToSign as { nonce: bigint }).nonce += 1n;
      },
    ],
  ];
  const chains = ["evm", "tron"] as const;

  it.each(changes)(
    "%s after the summary was shown: PERMIT2_DIGEST_MISMATCH, no wallet asked",
    async (_name, change) => {
      for (const chain of chains) {
        const shown = verifyPermit2Approval(parametersOf({ chain }));
        const signedLater = () => {
          const parameters = parametersOf({ chain });
          change(parameters);
          parameters.expected = { ...parameters.expected, digest: shown.digest };
          return parameters;
        };
        // The changed permit passes every other check: only the pin refuses it.
        const { digest } = verifyPermit2Approval({
          ...signedLater(),
          expected: { ...signedLater().expected, digest: undefined },
        });
        expect(digest).not.toBe(shown.digest);
        expect(codeOf(() => verifyPermit2Approval(signedLater()))).toBe("PERMIT2_DIGEST_MISMATCH");
        expect(await signWithSpies(signedLater, chain)).toEqual({
          code: "PERMIT2_DIGEST_MISMATCH",
          calls: 0,
        });
      }
    },
  );

  it("a raised minimum (still above the floor) for another intent of the same quote: PERMIT2_DIGEST_MISMATCH", async () => {
    const shown = verifyPermit2Approval(parametersOf());
    const later = parametersOf({ witness: { minDestAmount: "3950" } });
    later.quote = { ...later.quote, minDestAmountLots: 3_950n };
    later.expected = { ...later.expected, digest: shown.digest };
    expect(codeOf(() => verifyPermit2Approval(later))).toBe("PERMIT2_DIGEST_MISMATCH");
    expect(await signWithSpies(later, "evm")).toEqual({ code: "PERMIT2_DIGEST_MISMATCH", calls: 0 });
  });

  it("the same permit, pinned in either case: verified and signed, the signature recovers over that digest", async () => {
    const { privateKeyToAccount } = await import("viem/accounts");
    const { recoverAddress } = await import("viem");
    const account = privateKeyToAccount(USER_PRIVATE_KEY);
    for (const chain of chains) {
      const shown = verifyPermit2Approval(parametersOf({ chain }));
      for (const digest of [shown.digest, shown.digest.toUpperCase().replace("0X", "0x")]) {
        const parameters = parametersOf({ chain });
        parameters.expected = { ...parameters.expected, digest: digest as `0x${string}` };
        expect(verifyPermit2Approval(parameters).digest).toBe(shown.digest);
      }
    }
    const parameters = parametersOf();
    const shown = verifyPermit2Approval(parameters);
    const { signature } = await signPermit2Approval({
      ...parameters,
      expected: { ...parameters.expected, digest: shown.digest },
      signer: account,
    });
    expect(await recoverAddress({ hash: shown.digest, signature })).toBe(account.address);
  });

  it.each([
    ["not hex", "0xzz"],
    ["31 bytes", `0x${"ab".repeat(31)}`],
    ["a number", 1],
    ["no 0x", "ab".repeat(32)],
  ])("a digest that is %s: PERMIT2_EXPECTED_INVALID (the wallet's own input)", (_name, digest) => {
    const parameters = parametersOf();
    parameters.expected = { ...parameters.expected, digest: digest as never };
    expect(codeOf(() => verifyPermit2Approval(parameters))).toBe("PERMIT2_EXPECTED_INVALID");
  });
});
