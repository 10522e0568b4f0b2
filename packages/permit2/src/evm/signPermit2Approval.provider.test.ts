/**
 * The bare EIP-1193 path (`provider`): a stand-in wallet that follows EIP-1193 and `eth_signTypedData_v4` (JSON typed
 * data with its `EIP712Domain`, uint256 values as decimal strings) and signs with ethers, an independent EIP-712
 * implementation. Whatever the provider returns, the signer recovers the address and refuses anything but the owner.
 */
import { isSwapIntentError } from "@swapintent/client";
import { TypedDataEncoder, Wallet } from "ethers";
import { type TypedDataDefinition, verifyTypedData } from "viem";
import { describe, expect, it, vi } from "vitest";
import {
  buildPermit2Fixture,
  EVM,
  OTHER_PRIVATE_KEY,
  USER_ADDRESS,
  USER_PRIVATE_KEY,
} from "../../test/fixtures/buildPermit2Fixture.js";
import { isPermit2Error } from "../errors.js";
import { signPermit2Approval } from "./signPermit2Approval.js";

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

function parametersOf(options: Parameters<typeof buildPermit2Fixture>[0] = {}) {
  const f = buildPermit2Fixture(options);
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

interface ChangeableTypedData {
  domain: Record<string, unknown>;
  message: Record<string, unknown>;
}

interface StandInOptions {
  /** The key the wallet holds (default: the user's). */
  privateKey?: string;
  /** The chain the wallet is on (default: the fixture's). */
  chainId?: number;
  /** What the wallet answers to `eth_chainId` / `eth_accounts` instead of the truth. */
  chainIdAnswer?: unknown;
  accountsAnswer?: unknown;
  /** Rewrites the signature it returns (junk, high s, …). */
  tamper?: ((signature: string) => unknown) | undefined;
  /** Signs a changed copy of the typed data instead (another chain, another amount). */
  changeTypedData?: ((typedData: ChangeableTypedData) => void) | undefined;
}

/** An EIP-1193 wallet: `request({ method, params })` only; the key stays inside; every request is recorded. */
function standInProvider(options: StandInOptions = {}) {
  const wallet = new Wallet(options.privateKey ?? USER_PRIVATE_KEY);
  const chainId = options.chainId ?? EVM.chainId;
  // The account it reports (and signs "for"); the key it signs with is always its own.
  const reported = "accountsAnswer" in options ? options.accountsAnswer : [wallet.address];
  const request = vi.fn(async ({ method, params }: { method: string; params?: readonly unknown[] }) => {
    if (method === "eth_chainId")
      return "chainIdAnswer" in options ? options.chainIdAnswer : `0x${chainId.toString(16)}`;
    if (method === "eth_accounts") return reported;
    if (method !== "eth_signTypedData_v4") throw Object.assign(new Error("unsupported"), { code: 4200 });
    const [from, json] = params as [string, string];
    if (typeof json !== "string")
      throw Object.assign(new Error("typed data must be a JSON string"), { code: -32602 });
    if (!Array.isArray(reported) || from.toLowerCase() !== String(reported[0]).toLowerCase())
      throw Object.assign(new Error("unknown account"), { code: 4100 });
    const typedData = JSON.parse(json);
    const { EIP712Domain, ...structs } = typedData.types;
    // A wallet hashes the domain with the EIP712Domain type it was sent: it must be the one the domain needs.
    const payload = TypedDataEncoder.getPayload(typedData.domain, structs, typedData.message);
    if (JSON.stringify(EIP712Domain) !== JSON.stringify(payload.types.EIP712Domain))
      throw Object.assign(new Error("EIP712Domain does not fit the domain"), { code: -32602 });
    options.changeTypedData?.(typedData);
    const signature = await wallet.signTypedData(typedData.domain, structs, typedData.message);
    return options.tamper ? options.tamper(signature) : signature;
  });
  return { request };
}

const methods = (provider: ReturnType<typeof standInProvider>) =>
  provider.request.mock.calls.map(([{ method }]) => method);

async function refusal(run: () => Promise<unknown>) {
  const error = await run().catch((e: unknown) => e);
  if (!isSwapIntentError(error)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe("signPermit2Approval with a bare EIP-1193 provider", () => {
  it("asks eth_accounts, eth_chainId, then eth_signTypedData_v4 with [address, JSON]; viem verifies the signature", async () => {
    const { fixture, parameters } = parametersOf();
    const provider = standInProvider();
    const result = await signPermit2Approval({ ...parameters, provider });

    expect(methods(provider)).toEqual(["eth_accounts", "eth_chainId", "eth_signTypedData_v4"]);
    const [address, json] = provider.request.mock.calls[2]![0].params as [string, string];
    expect(address).toBe(USER_ADDRESS);
    const sent = JSON.parse(json);
    expect(sent.primaryType).toBe("PermitWitnessTransferFrom");
    expect(sent.message.permitted.amount).toMatch(/^[0-9]+$/); // bigints as decimal strings
    expect(sent.message.nonce).toMatch(/^[0-9]+$/);
    expect(result.owner).toBe(USER_ADDRESS);
    expect(result.approval).toEqual({ type: "permit2", signedData: result.signature });
    expect(
      await verifyTypedData({
        address: USER_ADDRESS,
        ...(fixture.evmTypedData as unknown as TypedDataDefinition),
        signature: result.signature,
      }),
    ).toBe(true);
  });

  it("with `account` it asks no eth_accounts and signs for that account", async () => {
    const { parameters } = parametersOf();
    const provider = standInProvider();
    const result = await signPermit2Approval({ ...parameters, provider, account: USER_ADDRESS });
    expect(methods(provider)).toEqual(["eth_chainId", "eth_signTypedData_v4"]);
    expect(result.owner).toBe(USER_ADDRESS);
  });

  it("a provider that signs with another key: PERMIT2_SIGNER_MISMATCH with the recovered address", async () => {
    const { parameters } = parametersOf();
    const other = new Wallet(OTHER_PRIVATE_KEY);
    // The wallet reports the user's account but signs with another key.
    const provider = standInProvider({ privateKey: OTHER_PRIVATE_KEY, accountsAnswer: [USER_ADDRESS] });
    const error = await refusal(() => signPermit2Approval({ ...parameters, provider }));
    expect(methods(provider)).toEqual(["eth_accounts", "eth_chainId", "eth_signTypedData_v4"]);
    expect(isPermit2Error(error, "PERMIT2_SIGNER_MISMATCH") && error.details).toEqual({
      expected: USER_ADDRESS.toLowerCase(),
      recovered: other.address.toLowerCase(),
    });
  });

  it("a provider that signs other data (another chain id or amount in what it signed): PERMIT2_SIGNER_MISMATCH", async () => {
    const changes: StandInOptions["changeTypedData"][] = [
      (t) => {
        t.domain.chainId = 1;
      },
      (t) => {
        (t.message.permitted as Record<string, unknown>).amount = "1";
      },
      (t) => {
        t.message.spender = EVM.resolver;
      },
    ];
    for (const changeTypedData of changes) {
      const { parameters } = parametersOf();
      const provider = standInProvider({ changeTypedData });
      expect((await refusal(() => signPermit2Approval({ ...parameters, provider }))).code).toBe(
        "PERMIT2_SIGNER_MISMATCH",
      );
    }
  });

  it("a provider on another chain: PERMIT2_CHAIN_ID_MISMATCH before it is asked to sign", async () => {
    const { parameters } = parametersOf();
    const provider = standInProvider({ chainId: 1 });
    const error = await refusal(() => signPermit2Approval({ ...parameters, provider }));
    expect(isPermit2Error(error, "PERMIT2_CHAIN_ID_MISMATCH") && error.details).toEqual({
      expected: EVM.chainId,
      actual: "0x1",
    });
    expect(methods(provider)).not.toContain("eth_signTypedData_v4");
  });

  it("a malformed eth_chainId or eth_accounts answer: PERMIT2_WALLET_RESPONSE_INVALID, never asked to sign", async () => {
    const { parameters } = parametersOf();
    for (const chainIdAnswer of [EVM.chainId, `${EVM.chainId}`, "0x", "0x0014665", "0xzz", null, {}]) {
      const provider = standInProvider({ chainIdAnswer });
      const error = await refusal(() => signPermit2Approval({ ...parameters, provider }));
      expect(isPermit2Error(error, "PERMIT2_WALLET_RESPONSE_INVALID") && error.details.method).toBe(
        "eth_chainId",
      );
      expect(methods(provider)).not.toContain("eth_signTypedData_v4");
    }
    for (const accountsAnswer of [[], "0xf39F", null, [42]]) {
      const provider = standInProvider({ accountsAnswer });
      const error = await refusal(() => signPermit2Approval({ ...parameters, provider }));
      expect(isPermit2Error(error, "PERMIT2_WALLET_RESPONSE_INVALID") && error.details.method).toBe(
        "eth_accounts",
      );
      expect(methods(provider)).toEqual(["eth_accounts"]);
    }
  });

  it("an eth_accounts entry that is not an EVM address: PERMIT2_OWNER_MISMATCH, never asked to sign", async () => {
    const { parameters } = parametersOf();
    for (const account of [
      "0x1234",
      "TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY",
      "0xF39FD6E51AAD88F6F4CE6AB8827279CFFFB92266x",
    ]) {
      const provider = standInProvider({ accountsAnswer: [account] });
      expect((await refusal(() => signPermit2Approval({ ...parameters, provider }))).code).toBe(
        "PERMIT2_OWNER_MISMATCH",
      );
      expect(methods(provider)).toEqual(["eth_accounts"]);
    }
  });

  it("junk, wrong-length, high-s and out-of-range signatures: PERMIT2_SIGNATURE_INVALID with the reason", async () => {
    const highS = (signature: string) => {
      const body = signature.slice(2);
      const s = BigInt(`0x${body.slice(64, 128)}`);
      const v = Number.parseInt(body.slice(128), 16);
      return `0x${body.slice(0, 64)}${(SECP256K1_N - s).toString(16).padStart(64, "0")}${(v === 27 ? 28 : 27).toString(16)}`;
    };
    const cases: [StandInOptions["tamper"], string][] = [
      [() => undefined, "not-a-string"],
      [() => ({ signature: "0x" }), "not-a-string"],
      [() => 42, "not-a-string"],
      [(s) => s.slice(0, -2), "length"], // 64 bytes (EIP-2098 form)
      [(s) => `${s}00`, "length"], // 66 bytes
      [() => "0x", "length"],
      [(s) => `${s.slice(0, -2)}zz`, "length"], // not hex
      [(s) => `${s.slice(0, -2)}1d`, "v"], // v = 29
      [highS, "high-s"],
      [(s) => `0x${"00".repeat(32)}${s.slice(66)}`, "range"], // r = 0
      [(s) => `0x${SECP256K1_N.toString(16)}${s.slice(66)}`, "range"], // r = n
    ];
    for (const [tamper, reason] of cases) {
      const { parameters } = parametersOf();
      const provider = standInProvider({ tamper });
      const error = await refusal(() => signPermit2Approval({ ...parameters, provider }));
      expect(isPermit2Error(error, "PERMIT2_SIGNATURE_INVALID") && error.details.reason).toBe(reason);
    }
  });

  it("a wallet that refuses (EIP-1193 4001): PERMIT2_SIGNING_FAILED with the step and the wallet's error as cause", async () => {
    const { parameters } = parametersOf();
    const provider = standInProvider();
    provider.request.mockImplementation(async ({ method }) => {
      if (method === "eth_chainId") return `0x${EVM.chainId.toString(16)}`;
      if (method === "eth_accounts") return [USER_ADDRESS];
      throw Object.assign(new Error("User rejected the request."), { code: 4001 });
    });
    const error = await refusal(() => signPermit2Approval({ ...parameters, provider }));
    expect(isPermit2Error(error, "PERMIT2_SIGNING_FAILED") && error.details.step).toBe("sign");
    expect((error.cause as { code: number }).code).toBe(4001);
  });

  it("every verification failure: the provider's request is never called", async () => {
    const tampers: Parameters<typeof buildPermit2Fixture>[0][] = [
      { witness: { recipient: "bcrt1qsomeoneelse" } },
      { witness: { minDestAmount: "1" } },
      { witness: { destChain: "5" } },
      { witness: { secretHash: `0x${"cd".repeat(32)}` } },
    ];
    for (const tamper of tampers) {
      const { parameters } = parametersOf();
      const { intent } = buildPermit2Fixture(tamper);
      const provider = standInProvider();
      const error = await refusal(() => signPermit2Approval({ ...parameters, intent, provider }));
      expect(error.code).toMatch(/^PERMIT2_/);
      expect(provider.request).not.toHaveBeenCalled();
    }
    // The wallet's own expectation (owner, chain) fails before any request too, with an `account` given.
    const { parameters } = parametersOf();
    const provider = standInProvider();
    const mismatches = [
      { ...parameters, expected: { ...parameters.expected, owner: EVM.resolver } },
      { ...parameters, expected: { ...parameters.expected, chainId: 1 } },
    ];
    for (const mismatched of mismatches)
      await refusal(() => signPermit2Approval({ ...mismatched, provider, account: USER_ADDRESS }));
    expect(provider.request).not.toHaveBeenCalled();
  });
});
