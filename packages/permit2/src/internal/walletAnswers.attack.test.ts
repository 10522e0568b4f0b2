/**
 * A hostile or broken wallet object, on every path: a getter that throws, an answer that is not what the method
 * promises, a chain read that fails. Whatever the wallet object does, the caller gets a typed `Permit2Error` (never a
 * raw TypeError/SyntaxError from the wallet's object), and the wallet is never asked to sign.
 */
import type { WalletClient } from "viem";
import { describe, expect, it, vi } from "vitest";
import { buildPermit2Fixture, USER_ADDRESS } from "../../test/fixtures/buildPermit2Fixture.js";
import { isPermit2Error } from "../errors.js";
import { signPermit2Approval } from "../evm/signPermit2Approval.js";
import { signTronPermit2Approval, type TronLinkTronWeb } from "../tron/signTronPermit2Approval.js";

function parametersOf(chain: "evm" | "tron") {
  const f = buildPermit2Fixture(chain === "tron" ? { chain: "tron" } : {});
  return {
    fixture: f,
    parameters: {
      intent: f.intent,
      quote: f.quote,
      expected: f.expected,
      allowedPermit2Addresses: f.allowedPermit2Addresses,
      nowMs: f.nowMs,
    },
  };
}

async function refusal(run: () => Promise<unknown>) {
  const error = await run().catch((e: unknown) => e);
  if (!isPermit2Error(error)) throw new Error(`expected a Permit2Error, got ${String(error)}`);
  return error;
}

/** A viem-shaped wallet client whose chain read is `getChainId`; it records whether it was asked to sign. */
function fakeWalletClient(getChainId: () => Promise<unknown>) {
  const signTypedData = vi.fn(async () => "0x");
  const walletClient = {
    account: { address: USER_ADDRESS, type: "json-rpc" },
    request: vi.fn(async () => null),
    getChainId,
    getAddresses: vi.fn(async () => [USER_ADDRESS]),
    signTypedData,
  } as unknown as WalletClient;
  return { walletClient, signTypedData };
}

function throwingGetter<T extends object>(target: T, key: string): T {
  return Object.defineProperty(target, key, {
    get() {
      throw new TypeError("getter blew up");
    },
  });
}

describe("a wallet object that throws or answers junk: a typed error, never asked to sign", () => {
  it("TronLink whose defaultAddress getter throws: PERMIT2_SIGNING_FAILED (step accounts)", async () => {
    const { parameters } = parametersOf("tron");
    const sign = vi.fn();
    const tronLink = throwingGetter(
      { trx: { signTypedData: sign } },
      "defaultAddress",
    ) as unknown as TronLinkTronWeb;
    const error = await refusal(() => signTronPermit2Approval({ ...parameters, tronLink }));
    expect(error.code).toBe("PERMIT2_SIGNING_FAILED");
    expect(error.details).toEqual({ step: "accounts" });
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(sign).not.toHaveBeenCalled();
  });

  it("a custom EVM signer whose address getter throws: PERMIT2_SIGNING_FAILED (step accounts)", async () => {
    const { parameters } = parametersOf("evm");
    const signTypedData = vi.fn(async () => "0x");
    const signer = throwingGetter({ signTypedData }, "address") as unknown as Parameters<
      typeof signPermit2Approval
    >[0]["signer"] &
      object;
    const error = await refusal(() => signPermit2Approval({ ...parameters, signer }));
    expect(error.code).toBe("PERMIT2_SIGNING_FAILED");
    expect(error.details).toEqual({ step: "accounts" });
    expect(signTypedData).not.toHaveBeenCalled();
  });

  it("a provider whose request getter throws: PERMIT2_SIGNING_FAILED, nothing else read", async () => {
    const { parameters } = parametersOf("evm");
    const provider = throwingGetter({}, "request") as unknown as { request: () => Promise<unknown> };
    const error = await refusal(() => signPermit2Approval({ ...parameters, provider }));
    expect(error.code).toBe("PERMIT2_SIGNING_FAILED");
    expect(error.details).toEqual({ step: "accounts" });
  });

  it("a wallet client whose chain read rejects: PERMIT2_SIGNING_FAILED (step chainId), never asked to sign", async () => {
    const { parameters } = parametersOf("evm");
    const { walletClient, signTypedData } = fakeWalletClient(async () => {
      throw new Error("disconnected");
    });
    const error = await refusal(() => signPermit2Approval({ ...parameters, signer: walletClient }));
    expect(error.code).toBe("PERMIT2_SIGNING_FAILED");
    expect(error.details).toEqual({ step: "chainId" });
    expect(signTypedData).not.toHaveBeenCalled();
  });

  it.each([
    ["a non-numeric string", "mainnet"],
    ["a fraction", 1.5],
    ["a negative number", -1],
    ["an object", { id: 1 }],
    ["undefined", undefined],
    ["a hex string (getChainId returns a number)", "0x1"],
  ])(
    "a wallet client whose getChainId returns %s: PERMIT2_WALLET_RESPONSE_INVALID, never asked to sign",
    async (_name, answer) => {
      const { parameters } = parametersOf("evm");
      const { walletClient, signTypedData } = fakeWalletClient(async () => answer);
      const error = await refusal(() => signPermit2Approval({ ...parameters, signer: walletClient }));
      expect(error.code).toBe("PERMIT2_WALLET_RESPONSE_INVALID");
      expect(error.details).toEqual({ method: "eth_chainId", value: answer });
      expect(signTypedData).not.toHaveBeenCalled();
    },
  );
});
