/**
 * Domain types of the swap intent service, as the client returns them after parsing the wire JSON.
 *
 * Conventions: camelCase names; every amount in lots is a `bigint`; unix timestamps keep their unit in
 * the name (`expiryMs`, `deadlineSecs`); ISO timestamps become `Date`; a stage that has not happened is
 * `null` (never `undefined`), whether the wire sent `null` or left the field out.
 */

/** A 0x-prefixed hex string. */
export type HexString = `0x${string}`;

/** @deprecated Use HexString. */
export type Hex = HexString;

/** The service's own network id (not an EVM chain id). */
export type NetworkId = number;

/** How the user approves an intent; decided by the source network. */
export type ApprovalMechanism = "permit2" | "htlc" | "cosign";

/** Intent states the service documents. Both wire spellings `RefundRquested` and `RefundRequested` parse to `RefundRequested`. */
export type KnownIntentStatus =
  | "Initiated"
  | "ApprovalAdded"
  | "Accepted"
  | "Declined"
  | "UserDeposited"
  | "Fulfilled"
  | "Expired"
  | "RefundRequested"
  | "Refunded";

/** A parsed status: one of the known states, or `"Unknown"` for a value this version does not know (see `rawStatus`). */
export type IntentStatus = KnownIntentStatus | "Unknown";

/** A quote (spec 2.1). */
export interface Quote {
  id: string;
  sourceChain: NetworkId;
  sourceToken: string;
  destChain: NetworkId;
  destToken: string;
  /** Intermediate routing token, `null` when the route is direct. */
  intermediateToken: string | null;
  intermediateTokenAmountMin: bigint | null;
  intermediateTokenAmountMax: bigint | null;
  intermediateTokenDecimals: number | null;
  sourceAmountLots: bigint;
  sourceAmountDecimals: number;
  minDestAmountLots: bigint;
  maxDestAmountLots: bigint;
  destAmountDecimals: number;
  /** Slippage in basis points, 0..10000. */
  slippageBps: number;
  /** Unix milliseconds after which the quote is invalid (a seconds value on the wire is converted). */
  expiryMs: number;
  swapType: string;
}

/** One field of an EIP-712 struct type. */
export interface TypedDataField {
  name: string;
  type: string;
}

/**
 * `params_to_sign` of a `permit2` intent (spec 4.3), keys camelCased; the typed-data maps (`domain`, `types`,
 * `witness`) keep the server's keys and values, copied into objects without a prototype (a name the server did not
 * send reads as `undefined`); a `__proto__`, `constructor` or `prototype` key in them is refused when parsing.
 */
export interface Permit2Params {
  escrowContractAddress: string;
  permit2ContractAddress: string;
  resolverDepositAddress: string;
  nonce: bigint;
  additionalData: {
    domain: Record<string, unknown>;
    types: Record<string, readonly TypedDataField[]>;
    witness: Record<string, unknown>;
    secretHash?: string | undefined;
    witnessTypeString: string;
    witnessHash: HexString;
  };
}

/** `params_to_sign` of an `htlc` (Bitcoin) intent: a base64 PSBT and the indexes of the user's inputs to sign. */
export interface HtlcParams {
  psbt: string;
  inputs: number[];
}

/** `params_to_sign` of a `cosign` (Solana) intent: hex of a serialized versioned transaction. */
export interface CosignParams {
  transaction: string;
}

interface IntentBase {
  intentId: string;
  /** Unix seconds. */
  deadlineSecs: number;
  /** 0x-prefixed SHA-256 hash (32 bytes) of the intent's secret. */
  secretHash: HexString;
}

/** The result of creating an intent (spec 2.2), discriminated by `approvalMechanism`. */
export type Intent =
  | (IntentBase & { approvalMechanism: "permit2"; paramsToSign: Permit2Params })
  | (IntentBase & { approvalMechanism: "htlc"; paramsToSign: HtlcParams })
  | (IntentBase & { approvalMechanism: "cosign"; paramsToSign: CosignParams });

/** What the user signed, ready to submit (design 2: `POST /intents/{id}/approvals`). */
export type Approval =
  | { type: "permit2"; signedData: HexString }
  | { type: "psbt"; signedData: string }
  | { type: "cosign"; signedData: { transaction: string; userAddress: string } };

/** Stage data of a swap (spec 2.4). Stages not reached are `null`. */
export interface SwapMetadata {
  id: string;
  proxyAddress: string | null;
  userDepositTx: string | null;
  fulfillTx: string | null;
  swapTx: string | null;
  createdAt: Date | null;
  userDepositedAt: Date | null;
  kycRequestedAt: Date | null;
  fulfilledAt: Date | null;
  swappedAt: Date | null;
  refundedAt: Date | null;
}

/** The swap status record (spec 2.3). */
export interface SwapStatus {
  intentId: string;
  status: IntentStatus;
  /** The status string exactly as the service sent it. */
  rawStatus: string;
  swapMetadata: SwapMetadata;
  sourceAmountDecimals: number;
  sourceAmountLots: bigint;
  sourceChain: NetworkId;
  sourceToken: string;
  destAmountDecimals: number;
  destChain: NetworkId;
  destToken: string;
  minDestAmountLots: bigint;
  maxDestAmountLots: bigint;
}

/** A swap history item (spec 2.5). */
export interface SwapHistoryItem extends SwapStatus {
  kycLink: string | null;
}

/** A network (spec 2.6). `type` is `EVM`, `TRON`, `BITCOIN`, `SOLANA` or a value this version does not know. */
export interface Network {
  id: NetworkId;
  name: string;
  type: string;
  supportsOptimizedSwap: boolean;
  iconUrl: string;
  supportsCustomTokens: boolean;
}

/** A token (spec 2.7). */
export interface TokenInfo {
  networkId: NetworkId;
  name: string;
  contractAddress: string;
  symbol: string;
  iconUrl: string;
  /** When set, the token must be wrapped into this token before use. */
  wrappedTokenAddress: string | null;
}

/** @deprecated Use TokenInfo. */
export type Token = TokenInfo;

/** A page of a paginated listing. */
export interface Page<T> {
  items: T[];
  limit: number;
  offset: number;
  total: number;
}

/** Whose swaps to list: `wallet` (one or more addresses), `retailId`, or both. At least one is required. */
export interface SwapHistoryFilter {
  /** Wallet address(es); sent as repeated `wallet=` parameters. */
  wallet?: string | readonly string[] | undefined;
  /** Retail user identifier; sent as `retail_id`. */
  retailId?: string | undefined;
  /** `true`: only swaps not yet in a terminal state. */
  active?: boolean | undefined;
}
