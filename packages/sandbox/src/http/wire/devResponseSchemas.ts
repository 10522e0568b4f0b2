/**
 * The answers of the `/sandbox/*` dev endpoints (served only when the sandbox runs with dev routes): one schema
 * each, shown in the document's `sandbox` tag and checked against the real answers by the tests.
 */
import { wireIntentStatuses } from "@swapintent/client";
import { z } from "zod";

const int = z.int();
const lots = z.string().regex(/^(0|[1-9][0-9]*)$/);
const hex = (bytes: number) => z.string().regex(new RegExp(`^[0-9a-f]{${bytes * 2}}$`));

const permit2Info = z
  .looseObject({
    engine: z.literal("anvil"),
    chainId: int,
    rpcUrl: z.url().meta({ description: "JSON-RPC of the engine (viem, ethers)." }),
    durable: z.boolean(),
    addressFormat: z.enum(["hex", "base58check"]),
    permit2Address: z.string(),
    escrowAddress: z.string().meta({ description: "The escrow contract: the permit's spender." }),
    resolverAddress: z.string(),
    resolverDepositAddress: z.string(),
    tokens: z.record(z.string(), z.string()).meta({ description: "Token addresses by symbol." }),
    smartAccountFactory: z.string().optional(),
    smartAccountKind: z.string().optional(),
  })
  .meta({ title: "EVM or Tron (permit2)" });

const bitcoinInfo = z
  .looseObject({
    engine: z.string(),
    network: z.literal("regtest"),
    addressPrefix: z.literal("bcrt1"),
    tokens: z.record(z.string(), z.string()),
    height: int.nullable(),
    blockIntervalSecs: int,
    resolverPublicKey: hex(33).meta({
      description: "33-byte compressed secp256k1 key, hex (its x-only part signs the claim leaf).",
    }),
    resolverAddress: z.string(),
    numsInternalKey: hex(32).meta({
      description: "The HTLC output's internal key (x-only, no known private key).",
    }),
    htlcCsvBlocks: int.meta({ description: "The refund leaf's relative lock, blocks." }),
    feeRateSatPerVbyte: z.string(),
  })
  .meta({ title: "Bitcoin (htlc)" });

const solanaInfo = z
  .looseObject({
    engine: z.literal("litesvm"),
    addressFormat: z.literal("base58"),
    resolverAddress: z.string(),
    feePayer: z.string().meta({ description: "Signer 0 of every cosign transaction." }),
    escrowOwner: z
      .string()
      .meta({ description: "Owner of the escrow token accounts (the cosign's destination)." }),
    resolverDepositAddress: z.string(),
    programs: z.record(z.string(), z.string()),
    tokens: z.record(z.string(), z.string()),
    mints: z.record(z.string(), z.string()),
    latestBlockhash: z.string(),
    clockUnixTimestamp: int,
  })
  .meta({ title: "Solana (cosign)" });

/** `GET /sandbox/chains`: each network's engine facts: escrow, Permit2 and resolver addresses and keys, tokens. */
export const ChainsSchema = z
  .array(
    z.strictObject({
      network_id: int,
      name: z.string(),
      type: z.enum(["EVM", "TRON", "BITCOIN", "SOLANA"]),
      approval_mechanism: z.enum(["permit2", "htlc", "cosign"]),
      info: z.union([permit2Info, bitcoinInfo, solanaInfo]),
    }),
  )
  .meta({ id: "SandboxChains" });

/** `GET /sandbox/status`: what this sandbox resolves. */
export const SandboxStatusSchema = z
  .strictObject({
    engines_id: z.string().nullable(),
    resolver_lock_held: z.boolean(),
    paused_intents: z.array(z.strictObject({ engines_id: z.string().nullable(), intents: int })),
  })
  .meta({ id: "SandboxStatus" });

/** `GET /sandbox/intents/{intent_id}`: the resolver's bookkeeping of an intent (never its secret). */
export const IntentInspectionSchema = z
  .strictObject({
    intent_id: z.string(),
    status: z.enum(wireIntentStatuses),
    pending_step: z.enum(["deposit", "deliver", "claim", "refund"]).nullable(),
    last_error: z.string().nullable(),
    deadline_secs: int,
    delivered_amount_lots: lots.nullable(),
    refund_tx: z.string().nullable(),
    approval_mechanism: z.enum(["permit2", "htlc", "cosign"]),
    leg_data: z
      .unknown()
      .meta({ description: "What the source leg keeps about the intent (its own shape)." }),
  })
  .meta({ id: "IntentInspection" });

/** `POST /sandbox/faucet`. */
export const FaucetSchema = z
  .strictObject({
    network_id: int,
    address: z.string(),
    token: z.string(),
    amount_lots: lots,
    tx_hash: z.string(),
  })
  .meta({ id: "Faucet" });

/** `GET /sandbox/balance`. */
export const BalanceSchema = z
  .strictObject({
    network_id: int,
    address: z.string(),
    token: z.string(),
    symbol: z.string(),
    decimals: int,
    balance_lots: lots,
    balance: z.string().meta({ description: "The balance in human units (decimal text)." }),
  })
  .meta({ id: "Balance" });

/** `GET`/`POST /sandbox/clock`. */
export const ClockSchema = z
  .strictObject({
    now_ms: int.meta({ description: "The sandbox clock, unix milliseconds." }),
    offset_ms: int.meta({ description: "How far it was moved ahead of the wall clock." }),
  })
  .meta({ id: "Clock" });

/** `GET`/`POST /sandbox/faults`. */
export const FaultsSchema = z
  .strictObject({ fail_delivery: z.boolean(), decline_all: z.boolean() })
  .meta({ id: "Faults" });

/** `POST /sandbox/smart-accounts`. */
export const SmartAccountSchema = z
  .strictObject({
    network_id: int,
    address: z
      .string()
      .meta({ description: "The account (CREATE2), a Permit2 owner that signs by ERC-1271." }),
    owner: z.string(),
    salt: z.string().regex(/^0x[0-9a-f]{64}$/),
    factory: z.string(),
    factory_data: z
      .string()
      .regex(/^0x[0-9a-f]*$/)
      .meta({ description: "The ERC-6492 factory call (calldata)." }),
    deployed: z.boolean(),
    tx_hash: z.string().nullable(),
  })
  .meta({ id: "SmartAccount" });
