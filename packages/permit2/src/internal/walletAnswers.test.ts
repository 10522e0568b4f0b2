/**
 * A hostile or broken wallet object, on every path: a getter that throws, an answer that is not what the method
 * promises, a chain read that fails. Whatever the wallet object does, the caller gets a typed `Permit2Error` (never a
 * raw TypeError/SyntaxError from the wallet's object), and the wallet is never asked to sign.
 */

import { type HexString, SwapIntentError } from "@swapintent/client";
import { Wallet } from "ethers";
import * as tronweb from "tronweb";
import {
  getAddress,
  hashTypedData,
  type TypedDataDefinition,
  verifyTypedData,
  type WalletClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it, vi } from "vitest";
import {
  buildPermit2Fixture,
  EVM,
  TRON,
  USER_ADDRESS,
  USER_PRIVATE_KEY,
} from "../../test/fixtures/buildPermit2Fixture.js";
import type { Permit2TypedData } from "../types.js";

/** Another valid EVM address (a second account the wallet also holds). */
const OTHER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

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

/**
 * A viem-shaped wallet client whose raw `eth_chainId` answer (through `request`) is `chainIdAnswer`; it records
 * whether it was asked to sign.
 */
function fakeWalletClient(chainIdAnswer: () => Promise<unknown>) {
  const signTypedData = vi.fn(async () => "0x");
  const walletClient = {
    account: { address: USER_ADDRESS, type: "json-rpc" },
    request: vi.fn(async ({ method }: { method: string }) =>
      method === "eth_chainId" ? chainIdAnswer() : null,
    ),
    getChainId: vi.fn(async () => EVM.chainId),
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
    ["a number (eth_chainId answers a hex quantity)", EVM.chainId],
    ["a decimal string without 0x", String(EVM.chainId)],
  ])(
    "a wallet client whose eth_chainId answers %s: PERMIT2_WALLET_RESPONSE_INVALID, never asked to sign",
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

/** An EIP-1193 wallet holding the user's key that reports `accounts` and records every method it is asked. */
function accountsProvider(accounts: unknown) {
  const wallet = new Wallet(USER_PRIVATE_KEY);
  const request = vi.fn(async ({ method, params }: { method: string; params?: unknown[] }) => {
    if (method === "eth_accounts") return accounts;
    if (method === "eth_chainId") return `0x${EVM.chainId.toString(16)}`;
    const { types, domain, message } = JSON.parse((params as [string, string])[1]);
    const { EIP712Domain: _domainType, ...structs } = types;
    return wallet.signTypedData(domain, structs, message);
  });
  const methods = () => request.mock.calls.map(([call]) => call.method);
  return { provider: { request }, methods };
}

/** Flips the case of the first letter in a checksummed address: the checksum no longer holds. */
function breakChecksum(address: string): string {
  const at = address.slice(2).search(/[a-fA-F]/) + 2;
  const c = address[at]!;
  return (
    address.slice(0, at) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + address.slice(at + 1)
  );
}

describe("the owner as the wallet spells it: case-insensitive, never loose", () => {
  it("an all-lowercase or checksummed account signs; several accounts: the first, asked once", async () => {
    const { parameters } = parametersOf("evm");
    for (const accounts of [
      [USER_ADDRESS.toLowerCase()],
      [getAddress(USER_ADDRESS)],
      [USER_ADDRESS, OTHER],
    ]) {
      const { provider, methods } = accountsProvider(accounts);
      const result = await signPermit2Approval({ ...parameters, provider });
      expect(result.owner).toBe(accounts[0]);
      expect(methods()).toEqual(["eth_accounts", "eth_chainId", "eth_signTypedData_v4"]);
    }
  });

  it("a mixed-case account whose checksum fails, or a 0X/space/prefix variant: PERMIT2_OWNER_MISMATCH, never asked to sign", async () => {
    const { parameters } = parametersOf("evm");
    const user = getAddress(USER_ADDRESS);
    for (const account of [
      breakChecksum(user),
      `0X${user.slice(2)}`,
      ` ${user}`,
      user.slice(0, 41),
      `${user}0`,
    ]) {
      const { provider, methods } = accountsProvider([account]);
      const error = await refusal(() => signPermit2Approval({ ...parameters, provider }));
      expect(error.code).toBe("PERMIT2_OWNER_MISMATCH");
      expect(methods()).toEqual(["eth_accounts"]);
    }
  });

  it("expected.owner compares case-insensitively, and a near-miss owner (one nibble off) is refused before signing", async () => {
    const { parameters } = parametersOf("evm");
    const user = USER_ADDRESS.toLowerCase();
    const ok = accountsProvider([getAddress(USER_ADDRESS)]);
    const expected = { ...parameters.expected, owner: user };
    expect((await signPermit2Approval({ ...parameters, expected, provider: ok.provider })).owner).toBe(
      getAddress(USER_ADDRESS),
    );
    const nearMiss = `${user.slice(0, 41)}${user[41] === "0" ? "1" : "0"}`;
    const refused = accountsProvider([getAddress(USER_ADDRESS)]);
    const error = await refusal(() =>
      signPermit2Approval({
        ...parameters,
        expected: { ...parameters.expected, owner: nearMiss },
        provider: refused.provider,
      }),
    );
    expect(error.code).toBe("PERMIT2_OWNER_MISMATCH");
    expect(refused.methods()).toEqual(["eth_accounts"]);
  });

  it("TronLink reporting its hex form (41…), a 0x form, or a base58 with a broken checksum: PERMIT2_OWNER_MISMATCH, never asked to sign", async () => {
    const { parameters } = parametersOf("tron");
    const hex41 = tronweb.TronWeb.address.toHex(TRON.user);
    const last = TRON.user.at(-1) === "1" ? "2" : "1";
    for (const base58 of [hex41, `0x${hex41.slice(2)}`, `${TRON.user.slice(0, -1)}${last}`]) {
      const sign = vi.fn();
      const tronLink: TronLinkTronWeb = { defaultAddress: { base58 }, trx: { signTypedData: sign } };
      const error = await refusal(() => signTronPermit2Approval({ ...parameters, tronLink }));
      expect(error.code).toBe("PERMIT2_OWNER_MISMATCH");
      expect(sign).not.toHaveBeenCalled();
    }
  });
});

describe("a wallet's signature spellings that are the owner's: accepted, returned as 0x lowercase, v 27/28", () => {
  it("v as 0/1, uppercase hex: normalized, and viem verifies the result against the verified typed data", async () => {
    const { parameters } = parametersOf("evm");
    const spellings: ((signature: string) => string)[] = [
      (s) => `0x${s.slice(2, 130)}${(Number.parseInt(s.slice(130), 16) - 27).toString(16).padStart(2, "0")}`,
      (s) => `0x${s.slice(2).toUpperCase()}`,
      (s) => s.slice(2),
    ];
    for (const spell of spellings) {
      const { provider } = accountsProvider([USER_ADDRESS]);
      const honest = provider.request.getMockImplementation()!;
      provider.request.mockImplementation(async (call) => {
        const answer = await honest(call);
        return call.method === "eth_signTypedData_v4" ? spell(answer as string) : answer;
      });
      const result = await signPermit2Approval({ ...parameters, provider });
      expect(result.signature).toMatch(/^0x[0-9a-f]{128}(1b|1c)$/);
      expect(
        await verifyTypedData({
          address: USER_ADDRESS,
          signature: result.signature,
          ...(result.verified.typedData as unknown as TypedDataDefinition),
        }),
      ).toBe(true);
    }
  });
});

describe("a wallet that writes into the typed data it is given", () => {
  it("EVM custom signer, TronLink: the returned verified typed data and digest stay what was verified", async () => {
    const account = privateKeyToAccount(USER_PRIVATE_KEY as HexString);
    const evm = parametersOf("evm");
    const signer = {
      address: account.address,
      signTypedData: async (typedData: Permit2TypedData) => {
        const signature = await account.signTypedData(typedData as unknown as TypedDataDefinition);
        (typedData.message as { spender: string }).spender = OTHER;
        (typedData.domain as { chainId: number }).chainId = 1;
        typedData.types.TokenPermissions!.pop();
        return signature;
      },
    };
    const honest = await signPermit2Approval({ ...evm.parameters, signer: account });
    const result = await signPermit2Approval({ ...evm.parameters, signer });
    expect(result.verified.typedData).toEqual(honest.verified.typedData);
    expect(hashTypedData(result.verified.typedData as unknown as TypedDataDefinition)).toBe(
      result.verified.digest,
    );

    const tron = parametersOf("tron");
    const tronLink: TronLinkTronWeb = {
      defaultAddress: { base58: TRON.user },
      trx: {
        signTypedData: (domain, types, message) => {
          const signature = tronweb.Trx.signTypedData(domain, types, message, USER_PRIVATE_KEY);
          (message as { spender: string }).spender = TRON.resolver;
          return signature;
        },
      },
    };
    const first = await signTronPermit2Approval({ ...tron.parameters, tronLink });
    const second = await signTronPermit2Approval({ ...tron.parameters, privateKey: USER_PRIVATE_KEY });
    expect(first.verified.typedData).toEqual(second.verified.typedData);
  });
});

describe("a wallet that throws an error shaped like this package's own: PERMIT2_SIGNING_FAILED, the throw as cause", () => {
  // A hostile wallet must not speak with the package's codes (an abort the user never made, a chain mismatch that
  // makes the app switch chains): what a wallet throws is its refusal, whatever it looks like.
  const forgeries: [string, () => unknown][] = [
    [
      "a duck-typed PERMIT2_SIGNING_ABORTED",
      () => ({
        name: "SwapIntentError",
        code: "PERMIT2_SIGNING_ABORTED",
        shortMessage: "aborted",
        details: { stage: "whileSigning" },
      }),
    ],
    [
      "a branded PERMIT2_CHAIN_ID_MISMATCH",
      () => ({
        [Symbol.for("swapintent.error")]: true,
        name: "SwapIntentError",
        code: "PERMIT2_CHAIN_ID_MISMATCH",
        shortMessage: "switch to chain 1",
        details: { expected: 1, actual: 2 },
      }),
    ],
    [
      "a client SwapIntentError PERMIT2_SIGNER_MISMATCH",
      () => new SwapIntentError("PERMIT2_SIGNER_MISMATCH", "x"),
    ],
  ];
  const evmSigner = (overrides: object) =>
    ({ address: USER_ADDRESS, signTypedData: async () => "0x", ...overrides }) as unknown as Parameters<
      typeof signPermit2Approval
    >[0]["signer"] &
      object;
  const paths: [string, "accounts" | "chainId" | "sign", (thrown: unknown) => Promise<unknown>][] = [
    [
      "EVM custom signer, signTypedData",
      "sign",
      (thrown) =>
        signPermit2Approval({
          ...parametersOf("evm").parameters,
          signer: evmSigner({
            signTypedData: async () => {
              throw thrown;
            },
          }),
        }),
    ],
    [
      "EVM custom signer, address getter",
      "accounts",
      (thrown) =>
        signPermit2Approval({
          ...parametersOf("evm").parameters,
          signer: Object.defineProperty(evmSigner({}), "address", {
            get() {
              throw thrown;
            },
          }),
        }),
    ],
    [
      "viem wallet client, eth_chainId",
      "chainId",
      (thrown) =>
        signPermit2Approval({
          ...parametersOf("evm").parameters,
          signer: fakeWalletClient(async () => {
            throw thrown;
          }).walletClient,
        }),
    ],
    [
      "viem wallet client, signTypedData",
      "sign",
      (thrown) => {
        const { walletClient } = fakeWalletClient(async () => `0x${EVM.chainId.toString(16)}`);
        (walletClient as unknown as { signTypedData: () => never }).signTypedData = () => {
          throw thrown;
        };
        return signPermit2Approval({ ...parametersOf("evm").parameters, signer: walletClient });
      },
    ],
    [
      "TronLink, signTypedData",
      "sign",
      (thrown) =>
        signTronPermit2Approval({
          ...parametersOf("tron").parameters,
          tronLink: {
            defaultAddress: { base58: TRON.user },
            trx: {
              signTypedData: () => {
                throw thrown;
              },
            },
          },
        }),
    ],
    [
      "Tron custom signer, signTypedData",
      "sign",
      (thrown) =>
        signTronPermit2Approval({
          ...parametersOf("tron").parameters,
          signer: {
            address: TRON.user,
            signTypedData: async () => {
              throw thrown;
            },
          },
        }),
    ],
  ];
  for (const [path, step, run] of paths) {
    it(`${path}: every forgery becomes PERMIT2_SIGNING_FAILED (step ${step})`, async () => {
      for (const [name, forge] of forgeries) {
        const thrown = forge();
        const error = await refusal(() => run(thrown));
        expect({ code: error.code, details: error.details, cause: error.cause }, name).toEqual({
          code: "PERMIT2_SIGNING_FAILED",
          details: { step },
          cause: thrown,
        });
      }
    });
  }
});

describe("a wallet value that cannot be read or printed still gives the code its check found", () => {
  // The details of a refusal hold the wallet's own value (its owner, its eth_accounts or chain answer): one that
  // throws when it is walked or printed must not turn the refusal into a stray TypeError, nor into another code.
  const unreadable = (): [string, unknown][] => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return [
      ["a revoked Proxy", proxy],
      [
        "an object whose toJSON and toString throw",
        {
          toJSON() {
            throw new Error("toJSON");
          },
          toString() {
            throw new Error("toString");
          },
        },
      ],
      [
        "an object with a throwing getter",
        {
          get address() {
            throw new Error("getter");
          },
        },
      ],
      [
        "a function whose toString throws",
        Object.assign(() => 1, {
          toString() {
            throw new Error("toString");
          },
        }),
      ],
    ];
  };

  it("as the owner (custom EVM signer, TronLink): PERMIT2_OWNER_MISMATCH, never asked to sign", async () => {
    for (const [name, owner] of unreadable()) {
      const signTypedData = vi.fn(async () => "0x");
      const evm = await refusal(() =>
        signPermit2Approval({
          ...parametersOf("evm").parameters,
          signer: { address: owner as HexString, signTypedData },
        }),
      ).catch((e: unknown) => ({ code: `stray: ${String(e)}`, details: undefined }));
      expect(evm.code, name).toBe("PERMIT2_OWNER_MISMATCH");
      expect(evm.details, name).toEqual({ actualType: typeof owner });
      const tron = await refusal(() =>
        signTronPermit2Approval({
          ...parametersOf("tron").parameters,
          tronLink: { defaultAddress: { base58: owner as string }, trx: { signTypedData } },
        }),
      ).catch((e: unknown) => ({ code: `stray: ${String(e)}` }));
      expect(tron.code, name).toBe("PERMIT2_OWNER_MISMATCH");
      expect(signTypedData).not.toHaveBeenCalled();
    }
  });

  it("as a wallet client's or a provider's eth_chainId answer, or in eth_accounts: PERMIT2_WALLET_RESPONSE_INVALID", async () => {
    for (const [name, answer] of unreadable()) {
      const client = fakeWalletClient(async () => answer);
      const viaClient = await refusal(() =>
        signPermit2Approval({ ...parametersOf("evm").parameters, signer: client.walletClient }),
      );
      // A revoked Proxy cannot even be awaited (reading its `then` throws): the wallet's call failed.
      expect([viaClient.code, viaClient.details], name).toEqual(
        name === "a revoked Proxy"
          ? ["PERMIT2_SIGNING_FAILED", { step: "chainId" }]
          : ["PERMIT2_WALLET_RESPONSE_INVALID", { method: "eth_chainId", value: "[unreadable]" }],
      );
      for (const method of ["eth_chainId", "eth_accounts"]) {
        const { provider } = accountsProvider([USER_ADDRESS]);
        const honest = provider.request.getMockImplementation()!;
        provider.request.mockImplementation(async (call) =>
          call.method === method ? (method === "eth_accounts" ? [answer] : answer) : honest(call),
        );
        const viaProvider = await refusal(() =>
          signPermit2Approval({ ...parametersOf("evm").parameters, provider }),
        );
        const awaited = method === "eth_accounts" || name !== "a revoked Proxy";
        expect(viaProvider.code, `${name} ${method}`).toBe(
          awaited ? "PERMIT2_WALLET_RESPONSE_INVALID" : "PERMIT2_SIGNING_FAILED",
        );
      }
    }
  });
});
