import { getPermit2Allowance } from "@swapintent/permit2/evm";
import { formatTronAddress, parseTronAddress } from "@swapintent/permit2/tron";
import type { Account, Address, Chain, Hex, HttpTransport, PublicClient } from "viem";
import { createPublicClient, createWalletClient, defineChain, http } from "viem";
import { type ChainInfo, readFact, type WalletBase } from "./wallet.js";

/** Parameters of {@link readPermit2Chain}. */
interface ReadPermit2ChainParameters {
  /** The network's facts (`info` of `GET /sandbox/chains`, or a deployment's configuration). */
  info: ChainInfo;
  /** Tron (base58 addresses, TRX gas) rather than an EVM network; both are reached through a JSON-RPC URL. */
  tron: boolean;
}

/** What a Permit2 wallet of the demo apps needs to know of its network. */
interface ReadPermit2ChainReturnType {
  chainId: number;
  /** The Permit2 contract the wallet allows (the network's own spelling: 0x on EVM, base58 on Tron). */
  permit2: string;
  /** The escrow the wallet trusts as Permit2 spender: from its own chain facts, never from the intent. */
  escrow: string;
  chain: Chain;
  publicClient: PublicClient<HttpTransport, Chain>;
  /** The native coin's token (ETH or TRX) as the facts list it, or `undefined` when they list none. */
  nativeToken: string | undefined;
}

/**
 * Reads a Permit2 network's facts and opens a viem public client on its JSON-RPC URL.
 *
 * @throws Error naming the fact when `chainId`, `permit2Address`, `escrowAddress` or `rpcUrl` is missing.
 */
function readPermit2Chain({ info, tron }: ReadPermit2ChainParameters): ReadPermit2ChainReturnType {
  const chainId = Number(readFact(info, "chainId"));
  const chain = defineChain({
    id: chainId,
    name: tron ? "tron" : "evm",
    nativeCurrency: { name: "native", symbol: "NAT", decimals: 18 },
    rpcUrls: { default: { http: [readFact(info, "rpcUrl")] } },
  });
  const tokens = (info.tokens ?? {}) as Record<string, string>;
  const nativeSymbol = tron ? "TRX" : "ETH";
  return {
    chainId,
    permit2: readFact(info, "permit2Address"),
    escrow: readFact(info, "escrowAddress"),
    chain,
    publicClient: createPublicClient({ chain, transport: http(), pollingInterval: 50 }),
    nativeToken: Object.hasOwn(tokens, nativeSymbol) ? tokens[nativeSymbol] : undefined,
  };
}

/** Parameters of {@link preparePermit2Allowance}. */
interface PreparePermit2AllowanceParameters {
  account: Account;
  /** Tron: `token` and `permit2` are base58 addresses (converted to their 20-byte form for the EVM engine). */
  tron: boolean;
  chain: Chain;
  publicClient: PublicClient<HttpTransport, Chain>;
  permit2: string;
  token: string;
  amountLots: bigint;
}

/**
 * The one-time Permit2 allowance of a Permit2 wallet: reads the token's allowance for Permit2 and, when it is
 * below `amountLots`, sends the token's `approve` and waits for its receipt.
 *
 * @returns The `approve` transaction's hash, or `null` when the allowance already sufficed.
 * @throws Error naming the hash when the `approve` reverted; the allowance check's own errors.
 */
async function preparePermit2Allowance({
  account,
  tron,
  chain,
  publicClient,
  permit2,
  token,
  amountLots,
}: PreparePermit2AllowanceParameters): Promise<Hex | null> {
  const to20 = (a: string) => (tron ? parseTronAddress({ address: a }) : (a as Address));
  const allowance = await getPermit2Allowance({
    publicClient,
    token: to20(token),
    owner: account.address,
    amount: amountLots,
    permit2Address: to20(permit2),
  });
  if (allowance.sufficient) return null;
  const wallet = createWalletClient({ account, chain, transport: http() });
  const hash = await wallet.sendTransaction({ ...allowance.approveTransaction, account, chain });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`the Permit2 allowance transaction ${hash} reverted`);
  return hash;
}

/** Parameters of {@link createPermit2WalletBase}. */
export interface CreatePermit2WalletBaseParameters {
  /** The network's facts (`info` of `GET /sandbox/chains`, or a deployment's configuration). */
  info: ChainInfo;
  /** Tron (base58 addresses, TRX gas) rather than an EVM network; both are reached through a JSON-RPC URL. */
  tron: boolean;
  /** The wallet's viem account (the app holds its key; this module never sees it). */
  account: Account;
}

/** What {@link createPermit2WalletBase} returns: the wallet without its `approve`, and what `approve` needs. */
export interface CreatePermit2WalletBaseReturnType {
  wallet: WalletBase;
  chainId: number;
  /** The Permit2 contract the wallet allows (the network's own spelling: 0x on EVM, base58 on Tron). */
  permit2: string;
  /** The escrow the wallet trusts as Permit2 spender: from its own chain facts, never from the intent. */
  escrow: string;
}

/**
 * The part of a Permit2 wallet (EVM or Tron) the demo apps share: its address, its gas funding and its one-time
 * Permit2 allowance (`prepare`). Each app adds its own `approve` through `@swapintent/permit2`.
 *
 * @throws Error naming the fact when `chainId`, `permit2Address`, `escrowAddress` or `rpcUrl` is missing.
 */
export function createPermit2WalletBase({
  info,
  tron,
  account,
}: CreatePermit2WalletBaseParameters): CreatePermit2WalletBaseReturnType {
  const { chainId, permit2, escrow, chain, publicClient, nativeToken } = readPermit2Chain({ info, tron });
  const wallet: WalletBase = {
    type: tron ? "TRON" : "EVM",
    address: tron ? formatTronAddress({ address: account.address }) : account.address,
    publicKeyHex: undefined,
    // Gas for the one-time allowance. The sandbox runs Tron's Permit2 on an EVM engine that counts one sun
    // (10^-6 TRX) as 10^12 wei, so fees keep Tron's scale: an `approve` costs well under 1 TRX; 100 TRX is plenty.
    gasFunding: nativeToken ? { token: nativeToken, amount: tron ? "100" : "1" } : null,
    prepare: ({ token, amountLots }) =>
      preparePermit2Allowance({ account, tron, chain, publicClient, permit2, token, amountLots }),
  };
  return { wallet, chainId, permit2, escrow };
}
