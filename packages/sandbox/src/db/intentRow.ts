import type { WireIntentStatus } from "@swapintent/client";
import type { Json } from "../legs/types.js";

/** Intent states, spelled as the spec spells them (the client's {@link WireIntentStatus}). */
export type IntentStatusName = WireIntentStatus;

/** States after which the intent's status never changes. */
export const TERMINAL_STATUSES: readonly IntentStatusName[] = [
  "Fulfilled",
  "Declined",
  "Expired",
  "Refunded",
];

/** A leg call the resolver has recorded before making it (write-ahead), cleared in the transaction that stores its result. */
export type PendingStep = "deposit" | "deliver" | "claim" | "refund";

/** An intent as stored (one row holds intent state, swap metadata and leg data). Times are sandbox-clock unix ms. */
export interface IntentRow {
  id: string;
  quoteId: string;
  swapId: string;
  status: IntentStatusName;
  pendingStep: PendingStep | null;
  sourceChain: number;
  sourceToken: string;
  sourceAmountLots: string;
  sourceAmountDecimals: number;
  destChain: number;
  destToken: string;
  destAmountDecimals: number;
  minDestAmountLots: string;
  maxDestAmountLots: string;
  userSourceAddress: string;
  userSourcePublicKey: string | null;
  userDestinationAddress: string;
  refundAddress: string;
  retailUserId: string | null;
  /** Hex of the 32-byte secret. Never leaves the service except to the source leg's `claim`. */
  secret: string;
  secretHash: string;
  deadlineSecs: number;
  approvalMechanism: "permit2" | "htlc" | "cosign";
  paramsToSign: Json;
  legData: Json;
  proxyAddress: string;
  deliveredAmountLots: string | null;
  userDepositTx: string | null;
  fulfillTx: string | null;
  swapTx: string | null;
  refundTx: string | null;
  lastError: string | null;
  createdAtMs: number;
  updatedAtMs: number;
  userDepositedAtMs: number | null;
  kycRequestedAtMs: number | null;
  fulfilledAtMs: number | null;
  swappedAtMs: number | null;
  refundedAtMs: number | null;
  /**
   * The engines that hold the intent's funds (the data dir's identity, see `readEnginesId`); null when stored by a
   * store that records none (tests of the store alone), or before identities were recorded.
   */
  enginesId: string | null;
}

/** Database column of each field. */
export const INTENT_COLUMNS: Readonly<Record<keyof IntentRow, string>> = {
  id: "id",
  quoteId: "quote_id",
  swapId: "swap_id",
  status: "status",
  pendingStep: "pending_step",
  sourceChain: "source_chain",
  sourceToken: "source_token",
  sourceAmountLots: "source_amount_lots",
  sourceAmountDecimals: "source_amount_decimals",
  destChain: "dest_chain",
  destToken: "dest_token",
  destAmountDecimals: "dest_amount_decimals",
  minDestAmountLots: "min_dest_amount_lots",
  maxDestAmountLots: "max_dest_amount_lots",
  userSourceAddress: "user_source_address",
  userSourcePublicKey: "user_source_public_key",
  userDestinationAddress: "user_destination_address",
  refundAddress: "refund_address",
  retailUserId: "retail_user_id",
  secret: "secret",
  secretHash: "secret_hash",
  deadlineSecs: "deadline_secs",
  approvalMechanism: "approval_mechanism",
  paramsToSign: "params_to_sign",
  legData: "leg_data",
  proxyAddress: "proxy_address",
  deliveredAmountLots: "delivered_amount_lots",
  userDepositTx: "user_deposit_tx",
  fulfillTx: "fulfill_tx",
  swapTx: "swap_tx",
  refundTx: "refund_tx",
  lastError: "last_error",
  createdAtMs: "created_at_ms",
  updatedAtMs: "updated_at_ms",
  userDepositedAtMs: "user_deposited_at_ms",
  kycRequestedAtMs: "kyc_requested_at_ms",
  fulfilledAtMs: "fulfilled_at_ms",
  swappedAtMs: "swapped_at_ms",
  refundedAtMs: "refunded_at_ms",
  enginesId: "engines_id",
};

const BIGINT_FIELDS = new Set<keyof IntentRow>([
  "deadlineSecs",
  "createdAtMs",
  "updatedAtMs",
  "userDepositedAtMs",
  "kycRequestedAtMs",
  "fulfilledAtMs",
  "swappedAtMs",
  "refundedAtMs",
]);

/** Map a database row (snake_case) to an {@link IntentRow}; columns the query did not select are left out. */
export function readIntentRow(row: Record<string, unknown>): IntentRow {
  const out: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(INTENT_COLUMNS) as [keyof IntentRow, string][]) {
    if (!(column in row)) continue;
    const value = row[column];
    out[field] = BIGINT_FIELDS.has(field) && value !== null && value !== undefined ? Number(value) : value;
  }
  return out as unknown as IntentRow;
}

/** The fields a swap status record shows (spec 2.3/2.4): no secret, no leg data. */
export const STATUS_FIELDS = [
  "id",
  "swapId",
  "status",
  "proxyAddress",
  "userDepositTx",
  "fulfillTx",
  "swapTx",
  "createdAtMs",
  "userDepositedAtMs",
  "kycRequestedAtMs",
  "fulfilledAtMs",
  "swappedAtMs",
  "refundedAtMs",
  "sourceAmountDecimals",
  "sourceAmountLots",
  "sourceChain",
  "sourceToken",
  "destAmountDecimals",
  "destChain",
  "destToken",
  "minDestAmountLots",
  "maxDestAmountLots",
] as const satisfies readonly (keyof IntentRow)[];

/** An intent as the status and history endpoints read it. */
export type StatusRow = Pick<IntentRow, (typeof STATUS_FIELDS)[number]>;

/** SQL column list of {@link STATUS_FIELDS}. */
export const STATUS_COLUMNS_SQL = STATUS_FIELDS.map((f) => INTENT_COLUMNS[f]).join(", ");
