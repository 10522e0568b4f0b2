import { isSwapIntentError } from "@swapintent/client";
import { Wallet } from "ethers";
import {
  createWalletClient,
  custom,
  recoverTypedDataAddress,
  type TypedDataDefinition,
  verifyTypedData,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import {
  buildPermit2Fixture,
  EVM,
  OTHER_PRIVATE_KEY,
  USER_ADDRESS,
  USER_PRIVATE_KEY,
} from "../../test/fixtures/buildPermit2Fixture.js";
import type { Permit2TypedData } from "../types.js";
import { signPermit2Approval } from "./signPermit2Approval.js";

function base() {
  const f = buildPermit2Fixture();
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

const asViem = (t: object) => t as unknown as TypedDataDefinition;

async function codeOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (isSwapIntentError(error)) return error.code;
    throw error;
  }
  throw new Error("expected a refusal");
}

/** A browser-wallet stand-in behind EIP-1193: signs eth_signTypedData_v4 with ethers, counts sign requests. */
function injectedProvider(options: { chainId: number; privateKey: string; reports?: string }) {
  const wallet = new Wallet(options.privateKey);
  // The account it reports and signs "for" (a lying wallet reports another than its key's).
  const reported = options.reports ?? wallet.address;
  const calls: string[] = [];
  const provider = {
    calls,
    async request({ method, params }: { method: string; params?: unknown[] }): Promise<unknown> {
      calls.push(method);
      if (method === "eth_chainId") return `0x${options.chainId.toString(16)}`;
      if (method === "eth_accounts" || method === "eth_requestAccounts") return [reported];
      if (method === "eth_signTypedData_v4") {
        const [from, json] = params as [string, string];
        if (from.toLowerCase() !== reported.toLowerCase()) throw new Error("unknown account");
        const { domain, types, message } = JSON.parse(json);
        const { EIP712Domain: _, ...structs } = types;
        return wallet.signTypedData(domain, structs, message);
      }
      throw new Error(`unsupported ${method}`);
    },
  };
  return provider;
}

describe("signPermit2Approval", () => {
  it("signs with a viem local account; viem's verifyTypedData and recoverTypedDataAddress accept the signature", async () => {
    const { fixture, parameters } = base();
    const account = privateKeyToAccount(USER_PRIVATE_KEY);
    const result = await signPermit2Approval({ ...parameters, signer: account });

    expect(result.approval).toEqual({ type: "permit2", signedData: result.signature });
    expect(result.owner).toBe(USER_ADDRESS);
    expect(result.signature).toMatch(/^0x[0-9a-f]{128}(1b|1c)$/);
    expect(
      await verifyTypedData({
        address: USER_ADDRESS,
        ...asViem(fixture.evmTypedData),
        signature: result.signature,
      }),
    ).toBe(true);
    expect(
      await recoverTypedDataAddress({ ...asViem(fixture.evmTypedData), signature: result.signature }),
    ).toBe(USER_ADDRESS);
    // A bare viem signature over the independently built data is the same bytes.
    expect(result.signature).toBe(await account.signTypedData(asViem(fixture.evmTypedData)));
  });

  it("signs through a viem WalletClient over an injected EIP-1193 wallet", async () => {
    const { fixture, parameters } = base();
    const provider = injectedProvider({ chainId: EVM.chainId, privateKey: USER_PRIVATE_KEY });
    const walletClient = createWalletClient({ transport: custom(provider) });
    const result = await signPermit2Approval({ ...parameters, signer: walletClient });

    expect(provider.calls).toContain("eth_signTypedData_v4");
    expect(result.owner.toLowerCase()).toBe(USER_ADDRESS.toLowerCase());
    expect(
      await verifyTypedData({
        address: USER_ADDRESS,
        ...asViem(fixture.evmTypedData),
        signature: result.signature,
      }),
    ).toBe(true);
  });

  it("signs with the `account` it was given even when the client has another account attached (no other key used)", async () => {
    const { fixture, parameters } = base();
    const provider = injectedProvider({ chainId: EVM.chainId, privateKey: USER_PRIVATE_KEY });
    const walletClient = createWalletClient({
      account: privateKeyToAccount(OTHER_PRIVATE_KEY),
      transport: custom(provider),
    });
    const result = await signPermit2Approval({ ...parameters, signer: walletClient, account: USER_ADDRESS });
    expect(provider.calls).toContain("eth_signTypedData_v4");
    expect(result.owner).toBe(USER_ADDRESS);
    expect(
      await verifyTypedData({
        address: USER_ADDRESS,
        ...asViem(fixture.evmTypedData),
        signature: result.signature,
      }),
    ).toBe(true);
  });

  it("refuses when the injected wallet is on another chain, without asking it to sign", async () => {
    const { parameters } = base();
    const provider = injectedProvider({ chainId: 1, privateKey: USER_PRIVATE_KEY });
    const walletClient = createWalletClient({ transport: custom(provider) });
    expect(await codeOf(() => signPermit2Approval({ ...parameters, signer: walletClient }))).toBe(
      "PERMIT2_CHAIN_ID_MISMATCH",
    );
    expect(provider.calls).not.toContain("eth_signTypedData_v4");
  });

  it("signs with a custom signTypedData-only signer (hardware wallet) and normalizes v = 0/1 to 27/28", async () => {
    const { fixture, parameters } = base();
    const account = privateKeyToAccount(USER_PRIVATE_KEY);
    const seen: Permit2TypedData[] = [];
    const ledgerLike = {
      address: USER_ADDRESS,
      async signTypedData(typedData: Permit2TypedData) {
        seen.push(typedData);
        const sig = await account.signTypedData(asViem(typedData));
        const v = Number.parseInt(sig.slice(130), 16) - 27;
        return `${sig.slice(0, 130)}0${v}`;
      },
    };
    const result = await signPermit2Approval({ ...parameters, signer: ledgerLike });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.types).not.toHaveProperty("EIP712Domain");
    expect(result.signature.slice(130)).toMatch(/^(1b|1c)$/);
    expect(result.signature).toBe(await account.signTypedData(asViem(fixture.evmTypedData)));
  });

  it("verifies before signing: a tampered permit never reaches the signer", async () => {
    const { parameters } = base();
    let called = 0;
    const signer = {
      address: USER_ADDRESS,
      async signTypedData() {
        called++;
        return "0x";
      },
    } as const;
    const tampered = buildPermit2Fixture({ witness: { recipient: "bcrt1qsomeoneelse" } });
    expect(await codeOf(() => signPermit2Approval({ ...parameters, intent: tampered.intent, signer }))).toBe(
      "PERMIT2_RECIPIENT_MISMATCH",
    );
    expect(called).toBe(0);
  });

  it("refuses a signer that is not the expected owner", async () => {
    const { parameters } = base();
    const signer = privateKeyToAccount(OTHER_PRIVATE_KEY);
    expect(
      await codeOf(() =>
        signPermit2Approval({
          ...parameters,
          expected: { ...parameters.expected, owner: USER_ADDRESS },
          signer,
        }),
      ),
    ).toBe("PERMIT2_OWNER_MISMATCH");
  });

  it("refuses a local account or custom signer of another address than the `account` given, before it signs", async () => {
    const { parameters } = base();
    const other = privateKeyToAccount(OTHER_PRIVATE_KEY);
    const asked = { count: 0 };
    const local = privateKeyToAccount(USER_PRIVATE_KEY);
    const signers = [
      {
        ...local,
        sign: async (p: { hash: `0x${string}` }) => {
          asked.count++;
          return local.sign(p);
        },
      },
      {
        address: USER_ADDRESS,
        signTypedData: async () => {
          asked.count++;
          return `0x${"11".repeat(65)}`;
        },
      },
    ];
    for (const signer of signers)
      expect(await codeOf(() => signPermit2Approval({ ...parameters, signer, account: other.address }))).toBe(
        "PERMIT2_OWNER_MISMATCH",
      );
    expect(asked.count).toBe(0);
    // The same account, in another case, is the same account.
    const same = await signPermit2Approval({
      ...parameters,
      signer: local,
      account: USER_ADDRESS.toLowerCase() as `0x${string}`,
    });
    expect(same.owner).toBe(USER_ADDRESS);
  });

  it("refuses a signature that does not recover to the signer's address", async () => {
    const { parameters } = base();
    const other = privateKeyToAccount(OTHER_PRIVATE_KEY);
    const lying = {
      address: USER_ADDRESS,
      signTypedData: (t: Permit2TypedData) => other.signTypedData(asViem(t)),
    };
    expect(await codeOf(() => signPermit2Approval({ ...parameters, signer: lying }))).toBe(
      "PERMIT2_SIGNER_MISMATCH",
    );
  });

  it("recovers the signer on the local-key path too: an account that claims the user's address but holds another key is PERMIT2_SIGNER_MISMATCH", async () => {
    const { parameters } = base();
    const other = privateKeyToAccount(OTHER_PRIVATE_KEY);
    // Shaped like privateKeyToAccount's result (type local, source privateKey), with the user's address.
    const impostor = { ...other, address: USER_ADDRESS };
    expect(await codeOf(() => signPermit2Approval({ ...parameters, signer: impostor }))).toBe(
      "PERMIT2_SIGNER_MISMATCH",
    );
    // And a WalletClient whose wallet signs with another key than the account it reports.
    const provider = injectedProvider({
      chainId: EVM.chainId,
      privateKey: OTHER_PRIVATE_KEY,
      reports: USER_ADDRESS,
    });
    const walletClient = createWalletClient({ transport: custom(provider) });
    expect(await codeOf(() => signPermit2Approval({ ...parameters, signer: walletClient }))).toBe(
      "PERMIT2_SIGNER_MISMATCH",
    );
    expect(provider.calls).toContain("eth_signTypedData_v4");
  });

  it("wraps a wallet's refusal as PERMIT2_SIGNING_FAILED with the cause", async () => {
    const { parameters } = base();
    const rejecting = {
      address: USER_ADDRESS,
      signTypedData: async () => {
        throw new Error("User rejected the request.");
      },
    };
    const error = await signPermit2Approval({ ...parameters, signer: rejecting }).catch((e: unknown) => e);
    expect(isSwapIntentError(error, "PERMIT2_SIGNING_FAILED")).toBe(true);
    expect((error as Error).cause).toBeInstanceOf(Error);
  });
});
