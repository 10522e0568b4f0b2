import { isSwapIntentError } from "@swapintent/client";
import { vi } from "vitest";
import { signPermit2Approval } from "../src/evm/signPermit2Approval.js";
import { signTronPermit2Approval } from "../src/tron/signTronPermit2Approval.js";
import type { VerifyPermit2ApprovalParameters } from "../src/types.js";
import { USER_ADDRESS } from "./fixtures/buildPermit2Fixture.js";

/** The chain's signer with a spy as the key: the code it refused with and how often the key was asked to sign. */
export async function signWithSpies(parameters: VerifyPermit2ApprovalParameters, chain: "evm" | "tron") {
  const signTypedData = vi.fn(async () => `0x${"11".repeat(65)}`);
  const error =
    chain === "evm"
      ? await signPermit2Approval({ ...parameters, signer: { address: USER_ADDRESS, signTypedData } }).catch(
          (e: unknown) => e,
        )
      : await signTronPermit2Approval({
          ...parameters,
          signer: { address: "TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY", signTypedData },
        }).catch((e: unknown) => e);
  return {
    code: isSwapIntentError(error) ? error.code : String(error),
    calls: signTypedData.mock.calls.length,
  };
}
