import { randomBytes, randomUUID } from "node:crypto";
import { sha256 } from "@noble/hashes/sha2";
import type { Intent, Quote } from "@swapintent/client";
import { bytesToHex, type Hex } from "viem";
import {
  type Clock,
  type Json,
  type LegContext,
  type LegIntent,
  LegRejection,
  type NetworkConfig,
} from "../src/legs/types.js";

/** A sandbox clock the test moves by hand. */
export interface ManualClock extends Clock {
  advanceSecs(seconds: number): void;
}

/** A clock that starts at the real time and moves only when told. */
export function createManualClock(): ManualClock {
  let now = Date.now();
  return {
    nowMs: () => now,
    advanceSecs: (seconds) => {
      now += seconds * 1000;
    },
  };
}

/** A leg context for network `id` of the sandbox catalogue. */
export function createLegContext(options: {
  id: number;
  type: NetworkConfig["type"];
  clock: Clock;
  dataDir?: string;
  seed?: Uint8Array;
}): LegContext {
  return {
    network: {
      id: options.id,
      name: `Sandbox network ${options.id}`,
      type: options.type,
      supportsOptimizedSwap: false,
      supportsCustomTokens: options.id === 2,
      iconUrl: "",
    },
    clock: options.clock,
    dataDir: options.dataDir,
    seed: options.seed ?? new Uint8Array(randomBytes(32)),
    log: () => {},
  };
}

/** A fresh secret and its SHA-256 (computed with noble, not with the leg). */
export function createSecret(): { secret: Uint8Array; secretHash: Hex } {
  const secret = new Uint8Array(randomBytes(32));
  return { secret, secretHash: bytesToHex(sha256(secret)) };
}

/** An intent whose source is the leg's network (to a fixed Solana recipient unless `recipient` is given). */
export function createIntent(options: {
  sourceToken: string;
  amount: bigint;
  user: string;
  secretHash: Hex;
  deadlineSecs: number;
  recipient?: string;
}): LegIntent {
  return {
    intentId: randomUUID(),
    sourceToken: options.sourceToken,
    sourceAmountLots: options.amount,
    destChain: 5,
    destToken: "So11111111111111111111111111111111111111112",
    minDestAmountLots: 990n,
    maxDestAmountLots: 1000n,
    userSourceAddress: options.user,
    userSourcePublicKey: null,
    userDestinationAddress: options.recipient ?? "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
    refundAddress: options.user,
    secretHash: options.secretHash,
    deadlineSecs: options.deadlineSecs,
  };
}

/** The params_to_sign fields a wallet reads (apps/docs/pages/reference/approvals.md), typed loosely. */
export interface Permit2ParamsJson {
  escrow_contract_address: string;
  permit2_contract_address: string;
  resolver_deposit_address: string;
  nonce: number;
  additional_data: {
    domain: { name: string; chainId: number; verifyingContract: string };
    types: Record<string, { name: string; type: string }[]>;
    witness: Record<string, string>;
    secretHash: string;
    witness_type_string: string;
    witness_hash: Hex;
  };
}

/**
 * The Permit2 `PermitWitnessTransferFrom` EIP-712 request a wallet builds: the domain, types and witness come
 * from params_to_sign; the message is not sent, it is made of the quote's token and amount, the escrow as
 * spender, the nonce and the deadline (the witness's numbers as bigints).
 */
export function buildPermitWitnessTypedData<
  Types extends Record<string, readonly { name: string; type: string }[]>,
>(options: {
  domain: Record<string, unknown>;
  types: Types;
  witness: Record<string, unknown>;
  sourceToken: string;
  amount: bigint;
  spender: string;
  nonce: bigint;
  deadlineSecs: number;
}) {
  const { EIP712Domain: _domainFields, ...types } = options.types;
  const w = options.witness as Record<string, string>;
  return {
    domain: options.domain,
    types,
    primaryType: "PermitWitnessTransferFrom" as const,
    message: {
      permitted: { token: options.sourceToken, amount: options.amount },
      spender: options.spender,
      nonce: options.nonce,
      deadline: BigInt(options.deadlineSecs),
      witness: {
        intentId: w.intentId,
        secretHash: w.secretHash,
        destChain: BigInt(w.destChain as string),
        destToken: w.destToken,
        recipient: w.recipient,
        minDestAmount: BigInt(w.minDestAmount as string),
        maxDestAmount: BigInt(w.maxDestAmount as string),
      },
    },
  };
}

/** {@link buildPermitWitnessTypedData} from the leg's wire params_to_sign (snake_case) and the quote. */
export function buildTypedDataFromParams(
  params: Permit2ParamsJson,
  quote: { sourceToken: string; amount: bigint; deadlineSecs: number },
) {
  const a = params.additional_data;
  return {
    ...buildPermitWitnessTypedData({
      domain: a.domain,
      types: a.types,
      witness: a.witness,
      sourceToken: quote.sourceToken,
      amount: quote.amount,
      spender: params.escrow_contract_address,
      nonce: BigInt(params.nonce),
      deadlineSecs: quote.deadlineSecs,
    }),
    domain: a.domain,
  };
}

/**
 * The client's view of a leg intent and of the quote it was made from: the leg's wire params_to_sign
 * (snake_case) camelCased as `@swapintent/client` hands them to wallets; the quote expires 30 s after `nowMs`.
 */
export function toClientShapes(options: {
  intent: LegIntent;
  paramsToSign: Json;
  sourceChain: number;
  nowMs: number;
}): { clientIntent: Intent; quote: Quote } {
  const { intent } = options;
  const params = options.paramsToSign as unknown as Permit2ParamsJson;
  const a = params.additional_data;
  const clientIntent: Intent = {
    intentId: intent.intentId,
    deadlineSecs: intent.deadlineSecs,
    secretHash: intent.secretHash,
    approvalMechanism: "permit2",
    paramsToSign: {
      escrowContractAddress: params.escrow_contract_address,
      permit2ContractAddress: params.permit2_contract_address,
      resolverDepositAddress: params.resolver_deposit_address,
      nonce: BigInt(params.nonce),
      additionalData: {
        domain: a.domain,
        types: a.types,
        witness: a.witness,
        secretHash: a.secretHash,
        witnessTypeString: a.witness_type_string,
        witnessHash: a.witness_hash,
      },
    },
  };
  const quote: Quote = {
    id: "quote",
    sourceChain: options.sourceChain,
    sourceToken: intent.sourceToken,
    destChain: intent.destChain,
    destToken: intent.destToken,
    intermediateToken: null,
    intermediateTokenAmountMin: null,
    intermediateTokenAmountMax: null,
    intermediateTokenDecimals: null,
    sourceAmountLots: intent.sourceAmountLots,
    sourceAmountDecimals: 6,
    minDestAmountLots: intent.minDestAmountLots,
    maxDestAmountLots: intent.maxDestAmountLots,
    destAmountDecimals: 9,
    slippageBps: 50,
    expiryMs: options.nowMs + 30_000,
    swapType: "standard",
  };
  return { clientIntent, quote };
}

/** The `LegRejection` a leg call rejects with (any other outcome, resolved or another error, fails). */
export async function catchLegRejection(promise: Promise<unknown>): Promise<LegRejection> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LegRejection) return error;
    throw error;
  }
  throw new Error("expected a LegRejection");
}
