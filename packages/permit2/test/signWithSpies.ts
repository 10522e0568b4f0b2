import { isSwapIntentError } from "@swapintent/client";
import { vi } from "vitest";
import { signPermit2Approval } from "../src/evm/signPermit2Approval.js";
import { signTronPermit2Approval } from "../src/tron/signTronPermit2Approval.js";
import type { VerifyPermit2ApprovalParameters } from "../src/types.js";
import { USER_ADDRESS } from "./fixtures/buildPermit2Fixture.js";

const TRON_USER = "TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY";

/**
 * The chain's signers with spies as the wallet, through every route (EVM: a custom signer and a bare EIP-1193
 * provider; Tron: a TronLink-style signer and TronLink's injected `tronWeb`): the code each refused with (one code
 * when all agree, else each code joined by " / ") and how often any wallet was asked anything (a signature, an account, a chain id).
 */
export async function signWithSpies(
  input: VerifyPermit2ApprovalParameters | (() => VerifyPermit2ApprovalParameters),
  chain: "evm" | "tron",
) {
  // A factory gives each route fresh parameters (for inputs that answer each read differently).
  const fresh = () => (typeof input === "function" ? input() : input);
  const signTypedData = vi.fn(async () => `0x${"11".repeat(65)}`);
  const request = vi.fn(async () => `0x${"11".repeat(65)}`);
  const routes: (() => Promise<unknown>)[] =
    chain === "evm"
      ? [
          () => signPermit2Approval({ ...fresh(), signer: { address: USER_ADDRESS, signTypedData } }),
          () => signPermit2Approval({ ...fresh(), provider: { request }, account: USER_ADDRESS }),
        ]
      : [
          () => signTronPermit2Approval({ ...fresh(), signer: { address: TRON_USER, signTypedData } }),
          () =>
            signTronPermit2Approval({
              ...fresh(),
              tronLink: {
                defaultAddress: { base58: TRON_USER },
                trx: { signTypedData, _signTypedData: signTypedData },
              },
            }),
        ];
  const codes = new Set<string>();
  for (const route of routes) {
    const error = await route().catch((e: unknown) => e);
    codes.add(isSwapIntentError(error) ? error.code : String(error));
  }
  return {
    code: [...codes].join(" / "),
    calls: signTypedData.mock.calls.length + request.mock.calls.length,
  };
}
