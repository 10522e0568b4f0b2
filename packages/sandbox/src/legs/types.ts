/**
 * The contract between the sandbox's service core and its chain legs (one module per network type).
 *
 * The core owns HTTP, the database, quotes, intents and the resolver loop; a leg owns one local chain
 * engine and everything chain-specific: addresses, tokens, building `params_to_sign`, checking and
 * executing the user's approval, delivering, claiming and refunding. A leg never touches the database:
 * whatever it must remember about an intent it returns as `legData` (plain JSON), which the core stores
 * with the intent in the same transaction as the state change and hands back on every later call.
 */

/** Network types of the catalogue (the `type` field of GET /networks). */
export type NetworkType = "EVM" | "TRON" | "BITCOIN" | "SOLANA";

/** Plain JSON, as stored in the database. Amounts inside are decimal strings. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The sandbox clock. Dev mode can move it forward (`POST /sandbox/clock`); legs keep their engine's time in step with it. */
export interface Clock {
  /** Current time, unix milliseconds. */
  nowMs(): number;
}

/** A network of the catalogue, as configured in the core. */
export interface NetworkConfig {
  /** The service's own network id (not a chain id). */
  id: number;
  name: string;
  type: NetworkType;
  supportsOptimizedSwap: boolean;
  supportsCustomTokens: boolean;
  iconUrl: string;
}

/** A token a leg provides on its network (its address is known once the engine has started). */
export interface LegToken {
  symbol: string;
  name: string;
  decimals: number;
  /** Address or identifier as the API shows it (EVM checksummed hex, Tron base58, Solana mint, Bitcoin `btc`). */
  contractAddress: string;
  /** Set for native tokens that must be wrapped before use: the address of the wrapped token. */
  wrappedTokenAddress: string | null;
  iconUrl: string;
}

/** Everything a leg is told when it is created. */
export interface LegContext {
  network: NetworkConfig;
  clock: Clock;
  /** A folder for the engine's durable state, or undefined for an in-memory sandbox. */
  dataDir: string | undefined;
  /** Deterministic seed for the leg's resolver and deployer keys (so addresses survive a restart). */
  seed: Uint8Array;
  log: (message: string) => void;
}

/** The intent as a source leg sees it. */
export interface LegIntent {
  intentId: string;
  sourceToken: string;
  sourceAmountLots: bigint;
  destChain: number;
  destToken: string;
  minDestAmountLots: bigint;
  maxDestAmountLots: bigint;
  userSourceAddress: string;
  /** Hex without 0x; set for Bitcoin and Solana sources. */
  userSourcePublicKey: string | null;
  userDestinationAddress: string;
  refundAddress: string;
  /** 0x-prefixed SHA-256 of the intent's secret. */
  secretHash: `0x${string}`;
  deadlineSecs: number;
}

/** A submitted approval, as the wire carried it (design 2). */
export interface SubmittedApproval {
  type: "permit2" | "psbt" | "cosign";
  signedData: unknown;
}

/**
 * Every code a leg refuses with (the API error's `type` on a 422). The compiler rejects a code not listed here, so
 * the list is the sandbox's full set; `LEG_NOT_STARTED` is the only one the resolver does not treat as final (a leg
 * that is not running refuses nothing about the intent: the step is retried).
 */
export const LEG_REJECTION_CODES = [
  "ADDRESS_INVALID",
  "ALREADY_CLAIMED",
  "ALREADY_DELIVERED",
  "ALREADY_DEPOSITED",
  "ALREADY_REFUNDED",
  "AMOUNT_INVALID",
  "AMOUNT_MISMATCH",
  "AMOUNT_TOO_SMALL",
  "APPROVAL_INVALID",
  "APPROVAL_MALFORMED",
  "APPROVAL_MISSING",
  "APPROVAL_TYPE_MISMATCH",
  "CONTRACT_REVERTED",
  "DEADLINE_PASSED",
  "DEPOSIT_FAILED",
  "DEPOSIT_MISSING",
  "HTLC_SPENT",
  "INSUFFICIENT_ALLOWANCE",
  "INSUFFICIENT_BALANCE",
  "INSUFFICIENT_INVENTORY",
  "INVALID_ADDRESS",
  "INVALID_INTENT_ID",
  "INVALID_SECRET_HASH",
  "INVALID_TOKEN",
  "LEG_DATA_INVALID",
  "LEG_NOT_STARTED",
  "NATIVE_SOURCE_UNSUPPORTED",
  "NOT_DEPOSITED",
  "NOT_LOCKED",
  "NOT_OPERATOR",
  "PERMIT2_NONCE_USED",
  "PSBT_REJECTED",
  "PUBLIC_KEY_MISMATCH",
  "REFUND_TOO_EARLY",
  "SECRET_INVALID",
  "SECRET_MISMATCH",
  "SIGNATURE_INVALID",
  "SIGNATURE_MALFORMED",
  "SIGNATURE_MISSING",
  "SIMULATION_FAILED",
  "TOKEN_UNKNOWN",
  "TRANSACTION_FAILED",
  "TRANSACTION_MALFORMED",
  "TRANSACTION_MODIFIED",
  "TRANSACTION_REVERTED",
  "TRANSFER_FAILED",
  "TX_INVALID",
  "TX_NOT_FINAL",
  "TX_VALUE_INVALID",
  "UNKNOWN_TOKEN",
  "USER_MISMATCH",
  "UTXO_SPENT",
] as const;

/** A code of {@link LEG_REJECTION_CODES}. */
export type LegRejectionCode = (typeof LEG_REJECTION_CODES)[number];

/**
 * Refusals that say "not on this engine" rather than anything about the intent: the escrow or HTLC the step needs is
 * not there. On the intent's own engines that cannot happen once its deposit was recorded, so the resolver never
 * takes one as a step's final outcome: the step stays recorded and is retried (an engine that lost its state, or a
 * sandbox on another data dir's engines, must not clear a claim or a refund the user's funds wait for).
 */
export const LEG_ABSENCE_CODES: readonly LegRejectionCode[] = [
  "NOT_DEPOSITED",
  "DEPOSIT_MISSING",
  "NOT_LOCKED",
];

/** Raised by a leg when an approval or request is refused; the core answers 422 with `reason` and changes no state. */
export class LegRejection extends Error {
  override name = "LegRejection";
  constructor(
    /** Stable code, for example `SIGNATURE_INVALID`, `INSUFFICIENT_ALLOWANCE`, `PSBT_REJECTED`. */
    readonly code: LegRejectionCode,
    /** Human text for the error body's `message`. */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${code}: ${reason}`, options);
  }
}

/** One network's engine. Every method is safe to call again after a crash (idempotent where the core may retry). */
export interface ChainLeg {
  readonly type: NetworkType;
  readonly approvalMechanism: "permit2" | "htlc" | "cosign";

  /** Start (or reopen from `dataDir`) the engine, deploy or restore contracts and tokens. */
  start(): Promise<void>;
  /** Stop the engine and free its resources (processes, ports). */
  stop(): Promise<void>;

  /** The tokens of this network for the catalogue. */
  tokens(): LegToken[];
  /** Facts for `GET /sandbox/chains`: engine name, chain id, RPC URL, Permit2 and escrow addresses, ... */
  info(): Record<string, Json>;

  /** Whether `address` is a valid address on this network (EVM: checksum when mixed case; Tron: base58check; Bitcoin: bech32/bech32m of the leg's network; Solana: base58 32 bytes). */
  isValidAddress(address: string): boolean;
  /** Whether `publicKeyHex` (no 0x) belongs to `address`. Networks without public keys return true. */
  publicKeyMatchesAddress(address: string, publicKeyHex: string | null): boolean;

  /**
   * Build the spec's `params_to_sign` (wire JSON, snake_case) for an intent whose source is this network, and
   * name `proxyAddress`: the address the user's funds go to on this network (`swap_metadata.proxy_address`):
   * the escrow contract (EVM, Tron), the HTLC output's address (Bitcoin), the escrow token account (Solana).
   */
  buildApproval(intent: LegIntent): Promise<{ paramsToSign: Json; legData: Json; proxyAddress: string }>;
  /**
   * Undo what `buildApproval` set aside on the engine for an intent whose creation then failed (it was never
   * stored, or its outcome is unknown and the user was never given `params_to_sign`): the Bitcoin leg's coin
   * reservations. Optional: a leg whose `buildApproval` changes nothing on its engine leaves it out.
   */
  releaseApproval?(intent: LegIntent): Promise<void>;
  /** Check a submitted approval (simulate it on the engine). Throws `LegRejection` when it would fail. */
  verifyApproval(intent: LegIntent, legData: Json, approval: SubmittedApproval): Promise<{ legData: Json }>;
  /** Execute the verified approval: move the user's funds into the escrow. */
  deposit(intent: LegIntent, legData: Json): Promise<{ txHash: string; legData: Json }>;
  /** Claim the escrow with the secret (the resolver is paid for what it delivered). */
  claim(intent: LegIntent, legData: Json, secret: Uint8Array): Promise<{ txHash: string }>;
  /** Return escrowed funds to the user (delivery failed or the deadline passed). */
  refund(intent: LegIntent, legData: Json): Promise<{ txHash: string }>;

  /** Pay `amountLots` of `token` from the resolver's inventory to `recipient` (this network is the destination). */
  deliver(request: {
    intentId: string;
    token: string;
    recipient: string;
    amountLots: bigint;
  }): Promise<{ txHash: string }>;
  /** The resolver's inventory of `token` on this network (used by the decline policy). */
  inventory(token: string): Promise<bigint>;

  /** Dev faucet: mint or send `amountLots` of `token` to `address`. */
  faucet(request: { address: string; token: string; amountLots: bigint }): Promise<{ txHash: string }>;
  /** Balance of `address` in `token`, for tests and the faucet. */
  balanceOf(address: string, token: string): Promise<bigint>;
  /**
   * Dev: the sandbox smart account (ERC-1271) of `owner` and `salt` on a permit2 leg: its address, the ERC-6492
   * factory call that deploys it, and with `deploy` the account deployed. Legs without smart accounts omit it.
   */
  smartAccount?(request: { owner: string; salt: string; deploy: boolean }): Promise<Record<string, Json>>;
}

/** Creates one network's leg. */
export type LegFactory = (ctx: LegContext) => ChainLeg;

/** Leg factories by leg kind; a missing one is loaded from the sandbox's own legs (`src/legs/registry.ts`). */
export interface LegFactories {
  evm?: LegFactory;
  tron?: LegFactory;
  bitcoin?: LegFactory;
  solana?: LegFactory;
}
