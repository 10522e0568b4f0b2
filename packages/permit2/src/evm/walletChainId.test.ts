/**
 * One reading of the wallet's chain on every EVM path: the raw `eth_chainId` answer must be a `0x` hex quantity,
 * whether a bare EIP-1193 provider, a viem WalletClient or a wagmi one (a viem WalletClient over the connector's
 * provider) asks. viem's own `getChainId` reads a decimal "1337001" as the number 1337001.
 */
import { createWalletClient, custom } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it, vi } from "vitest";
import {
  buildPermit2Fixture,
  EVM,
  USER_ADDRESS,
  USER_PRIVATE_KEY,
} from "../../test/fixtures/buildPermit2Fixture.js";
import { isPermit2Error } from "../errors.js";
import { signPermit2Approval } from "./signPermit2Approval.js";

/** A wallet holding the user's key behind one EIP-1193 `request`, answering `eth_chainId` with `chainId`. */
function walletProvider(chainId: unknown) {
  const account = privateKeyToAccount(USER_PRIVATE_KEY);
  const signed = vi.fn();
  const request = vi.fn(async ({ method, params }: { method: string; params?: unknown[] }) => {
    if (method === "eth_chainId") return chainId;
    if (method === "eth_accounts" || method === "eth_requestAccounts") return [USER_ADDRESS];
    if (method === "eth_signTypedData_v4") {
      signed();
      const { domain, types, message, primaryType } = JSON.parse((params as [string, string])[1]);
      const { EIP712Domain: _domain, ...structs } = types;
      return account.signTypedData({ domain, types: structs, message, primaryType });
    }
    throw new Error(`unexpected ${method}`);
  });
  return { provider: { request }, signed };
}

const routes = {
  "bare EIP-1193 provider": (provider: ReturnType<typeof walletProvider>["provider"]) => ({ provider }),
  "viem WalletClient": (provider: ReturnType<typeof walletProvider>["provider"]) => ({
    signer: createWalletClient({ account: USER_ADDRESS, transport: custom(provider) }),
  }),
  "wagmi-style WalletClient (json-rpc account, no chain)": (
    provider: ReturnType<typeof walletProvider>["provider"],
  ) => ({ signer: createWalletClient({ transport: custom(provider) }), account: USER_ADDRESS }),
};

describe.each(Object.entries(routes))("%s: the wallet's eth_chainId", (_name, route) => {
  const sign = (chainId: unknown) => {
    const wallet = walletProvider(chainId);
    const f = buildPermit2Fixture();
    const run = signPermit2Approval({
      intent: f.intent,
      quote: f.quote,
      expected: f.expected,
      allowedPermit2Addresses: f.allowedPermit2Addresses,
      nowMs: f.nowMs,
      ...route(wallet.provider),
    } as Parameters<typeof signPermit2Approval>[0]);
    return { run, wallet };
  };

  it("a hex quantity of the permit's chain signs", async () => {
    const { run, wallet } = sign(`0x${EVM.chainId.toString(16)}`);
    expect((await run).owner.toLowerCase()).toBe(USER_ADDRESS.toLowerCase());
    expect(wallet.signed).toHaveBeenCalledOnce();
  });

  it.each([
    ["a decimal string without 0x", String(EVM.chainId)],
    ["a number", EVM.chainId],
    ["hex with a leading zero", `0x0${EVM.chainId.toString(16)}`],
    ["an empty string", ""],
  ])("%s: PERMIT2_WALLET_RESPONSE_INVALID, never asked to sign", async (_case, answer) => {
    const { run, wallet } = sign(answer);
    const error = await run.catch((e: unknown) => e);
    expect(isPermit2Error(error, "PERMIT2_WALLET_RESPONSE_INVALID")).toBe(true);
    expect(wallet.signed).not.toHaveBeenCalled();
  });

  it("another chain: PERMIT2_CHAIN_ID_MISMATCH, never asked to sign", async () => {
    const { run, wallet } = sign("0x1");
    const error = await run.catch((e: unknown) => e);
    expect(isPermit2Error(error, "PERMIT2_CHAIN_ID_MISMATCH")).toBe(true);
    expect(wallet.signed).not.toHaveBeenCalled();
  });
});
