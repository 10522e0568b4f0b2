/**
 * What a signer returns: the owner the summary shows is the owner checked, and the approval carries exactly the
 * verified permit and the checked signature.
 */
import { isSwapIntentError } from "@swapintent/client";
import { verifyTypedData } from "ethers";
import { describe, expect, it, vi } from "vitest";
import { answerInTurn } from "../../test/answerInTurn.js";
import {
  buildPermit2Fixture,
  EVM,
  TRON,
  USER_ADDRESS,
  USER_PRIVATE_KEY,
} from "../../test/fixtures/buildPermit2Fixture.js";
import { parametersOf } from "../../test/fixtures/parametersOf.js";
import { signWithSpies } from "../../test/signWithSpies.js";
import { isPermit2Error } from "../errors.js";
import { signPermit2Approval } from "../evm/signPermit2Approval.js";

describe("the owner the summary shows is the owner checked", () => {
  it("an expected.owner that reads as another address for the summary and as the signer later: PERMIT2_OWNER_MISMATCH, no key used", async () => {
    for (const chain of ["evm", "tron"] as const) {
      const signer = chain === "evm" ? USER_ADDRESS : "TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY";
      const other = chain === "evm" ? EVM.resolver : TRON.resolver;
      const parameters = () => {
        const fresh = parametersOf({ chain });
        answerInTurn(fresh.expected, "owner", [other, signer]);
        return fresh;
      };
      expect(await signWithSpies(parameters, chain)).toEqual({ code: "PERMIT2_OWNER_MISMATCH", calls: 0 });
    }
  });
});

describe("what a signer returns", () => {
  it("a wallet's high-s signature over the right digest is refused: PERMIT2_SIGNATURE_INVALID, reason high-s", async () => {
    const { privateKeyToAccount } = await import("viem/accounts");
    const account = privateKeyToAccount(USER_PRIVATE_KEY);
    const parameters = parametersOf();
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    let highS = "";
    const signTypedData = vi.fn(async (typedData: Parameters<typeof account.signTypedData>[0]) => {
      const sig = (await account.signTypedData(typedData)).slice(2);
      const s = BigInt(`0x${sig.slice(64, 128)}`);
      const v = Number.parseInt(sig.slice(128), 16);
      highS = `0x${sig.slice(0, 64)}${(n - s).toString(16).padStart(64, "0")}${(v === 27 ? 28 : 27).toString(16)}`;
      return highS;
    });
    const error = await signPermit2Approval({
      ...parameters,
      signer: { address: USER_ADDRESS, signTypedData: signTypedData as never },
    }).catch((e: unknown) => e);
    expect(isPermit2Error(error, "PERMIT2_SIGNATURE_INVALID") && error.details.reason).toBe("high-s");
    // An independent verifier refuses that form too: ethers will not recover a non-canonical (high) s.
    const f = buildPermit2Fixture();
    const { domain, types, message } = f.evmTypedData;
    expect(() => verifyTypedData(domain, types, message, highS)).toThrow(/non-canonical s/);
  });

  it("an EIP-2098 64-byte signature, or one with r = 0: PERMIT2_SIGNATURE_INVALID", async () => {
    for (const raw of [`0x${"11".repeat(64)}`, `0x${"00".repeat(32)}${"11".repeat(32)}1b`]) {
      const parameters = parametersOf();
      const result = await signPermit2Approval({
        ...parameters,
        signer: { address: USER_ADDRESS, signTypedData: async () => raw },
      }).catch((e: unknown) => e);
      expect(isSwapIntentError(result) ? result.code : "signed").toBe("PERMIT2_SIGNATURE_INVALID");
    }
  });
});
