import type { HexString } from "@swapintent/client";
import { createPermit2Error } from "../internal/fail.js";
import type { Permit2TypedData } from "../types.js";

/**
 * A bare EIP-1193 provider, as browser wallets inject it (`window.ethereum`, an EIP-6963 announced provider, a
 * WalletConnect provider): one `request({ method, params })`. No viem client is needed.
 */
export interface Permit2Eip1193Provider {
  // Method syntax and `any` on purpose, as viem's `custom` transport takes it: any provider's own typed `request`
  // (viem's `EIP1193Provider` on `window.ethereum`, a wallet SDK's) fits. This package only sends the three
  // methods it documents and checks every answer.
  /** Sends one JSON-RPC request to the wallet (`eth_accounts`, `eth_chainId`, `eth_signTypedData_v4`). */
  // biome-ignore lint/suspicious/noExplicitAny: a provider's request type narrows method and params per method
  request(arguments_: { method: any; params?: any }): Promise<unknown>;
}

/** The EIP-712 domain type of a Permit2 signature (no `version`), as `eth_signTypedData_v4` needs it in `types`. */
const EIP712_DOMAIN_FIELDS = [
  { name: "name", type: "string" },
  { name: "chainId", type: "uint256" },
  { name: "verifyingContract", type: "address" },
];

/** One provider request; a throw becomes `PERMIT2_SIGNING_FAILED` with the step it failed at. */
async function ask(
  provider: Permit2Eip1193Provider,
  method: string,
  params: readonly unknown[] | undefined,
  step: "accounts" | "chainId" | "sign",
): Promise<unknown> {
  try {
    return await provider.request(params === undefined ? { method } : { method, params });
  } catch (cause) {
    throw createPermit2Error(
      "PERMIT2_SIGNING_FAILED",
      `The wallet refused or failed to answer ${method}.`,
      { step },
      cause,
    );
  }
}

/**
 * The account to sign with: `account` when the caller passes it, else the provider's first `eth_accounts` entry
 * (the wallet must already be connected: the app calls `eth_requestAccounts` when the user connects).
 */
export async function readProviderAccount(
  provider: Permit2Eip1193Provider,
  account: string | undefined,
): Promise<unknown> {
  if (account !== undefined) return account;
  const accounts = await ask(provider, "eth_accounts", undefined, "accounts");
  if (!Array.isArray(accounts) || accounts.length === 0 || typeof accounts[0] !== "string")
    throw createPermit2Error("PERMIT2_WALLET_RESPONSE_INVALID", "eth_accounts returned no account.", {
      method: "eth_accounts",
      value: accounts,
    });
  return accounts[0];
}

/** `eth_chainId` must be a hex quantity equal to the verified domain's chain id, before the wallet is asked to sign. */
export async function assertProviderChain(provider: Permit2Eip1193Provider, chainId: number): Promise<void> {
  assertWalletChainId(await ask(provider, "eth_chainId", undefined, "chainId"), chainId);
}

/**
 * The one reading of a wallet's chain, on every EVM path (a bare provider, a viem or wagmi WalletClient): the raw
 * `eth_chainId` answer is a hex quantity (`0x` and no leading zero, as EIP-1193 and JSON-RPC spell it), equal to
 * the verified domain's chain id. A decimal string (`"1337001"`), a number or anything else is
 * `PERMIT2_WALLET_RESPONSE_INVALID`, whichever path asked.
 */
export function assertWalletChainId(answer: unknown, chainId: number): void {
  if (typeof answer !== "string" || !/^0x(0|[1-9a-fA-F][0-9a-fA-F]{0,63})$/.test(answer))
    throw createPermit2Error("PERMIT2_WALLET_RESPONSE_INVALID", "eth_chainId is not a hex quantity.", {
      method: "eth_chainId",
      value: answer,
    });
  if (BigInt(answer) !== BigInt(chainId))
    throw createPermit2Error("PERMIT2_CHAIN_ID_MISMATCH", "The wallet is connected to another chain.", {
      expected: chainId,
      actual: answer,
    });
}

/**
 * Asks for `eth_signTypedData_v4` with `[address, JSON]`: the typed data with its `EIP712Domain` type (wallets hash
 * the domain with it) and every bigint as a decimal string.
 */
export function requestTypedDataSignature(
  provider: Permit2Eip1193Provider,
  address: string,
  typedData: Permit2TypedData,
): Promise<unknown> {
  const json = JSON.stringify(
    { ...typedData, types: { EIP712Domain: EIP712_DOMAIN_FIELDS, ...typedData.types } },
    (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value),
  );
  return ask(provider, "eth_signTypedData_v4", [address, json], "sign") as Promise<HexString | unknown>;
}
