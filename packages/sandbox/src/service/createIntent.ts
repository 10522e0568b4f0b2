import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { QuoteRecord } from "../db/createStore.js";
import type { IntentRow } from "../db/intentRow.js";
import type { ChainLeg, Json } from "../legs/types.js";
import { callLeg } from "./callLeg.js";
import type { Core, ServiceCall } from "./core.js";
import { createInvalidRequestError, createRejectedError, createServiceError } from "./serviceError.js";
import { toLegIntent } from "./toLegIntent.js";

/** An intent request, parsed from the wire (spec 4.2). */
export interface IntentRequest {
  quoteId: string;
  refundAddress: string;
  retailUserId: string | undefined;
  userDestinationAddress: string;
  userSourceAddress: string;
  userSourcePublicKey: string | undefined;
  /** The partner asking: the quote must be its own (anyone else's is "not found"), and the intent becomes its own. */
  partnerId: string;
}

/** The partner's quote, unused and unexpired; 404 `QUOTE_NOT_FOUND` or 422 otherwise. */
async function findUsableQuote(core: Core, request: IntentRequest): Promise<QuoteRecord> {
  const quote = await core.store.getQuote(request.quoteId, request.partnerId);
  // A quote of this partner's that expired long enough ago to be pruned: its id still says when it expired.
  const expiredAt = quote
    ? undefined
    : core.quoteIds.readExpiry({ id: request.quoteId, partnerId: request.partnerId });
  if (expiredAt !== undefined && expiredAt < core.clock.nowMs()) throw quoteExpired(expiredAt);
  if (!quote)
    throw createServiceError({
      kind: "not_found",
      code: "QUOTE_NOT_FOUND",
      message: "No quote has this id.",
      entity: "Quote",
    });
  if (quote.usedByIntent !== null) throw quoteAlreadyUsed();
  if (core.clock.nowMs() > quote.expiryMs) throw quoteExpired(quote.expiryMs);
  return quote;
}

const quoteExpired = (expiryMs: number) =>
  createRejectedError(
    "QUOTE_EXPIRED",
    `The quote expired at ${new Date(expiryMs).toISOString()}; ask for a new one.`,
    "Quote",
  );

const quoteAlreadyUsed = () =>
  createRejectedError("QUOTE_ALREADY_USED", "An intent was already created from this quote.", "Quote");

/** The quote's two legs and source network; 422 `NETWORK_UNAVAILABLE` when either is not served. */
function findLegs(core: Core, sourceChain: number, destChain: number) {
  const sourceLeg = core.legs.get(sourceChain);
  const destLeg = core.legs.get(destChain);
  const sourceNetwork = core.findNetwork(sourceChain);
  if (!sourceLeg || !destLeg || !sourceNetwork)
    throw createRejectedError("NETWORK_UNAVAILABLE", "The quote's network is not served.", "Network");
  return { sourceLeg, destLeg, sourceNetwork };
}

/**
 * Check the request's addresses with the legs and its public key (required for Bitcoin and Solana sources, hex,
 * and the key of `user_source_address`); returns the key without `0x`, or null. 400 naming the field otherwise.
 */
function checkAddressesAndKey(
  request: IntentRequest,
  legs: ReturnType<typeof findLegs>,
  chains: { source: number; dest: number },
): string | null {
  const { sourceLeg, destLeg, sourceNetwork } = legs;
  const badAddress = (field: string, chain: number) =>
    createInvalidRequestError(
      "INVALID_ADDRESS",
      `\`${field}\` is not a valid address on network ${chain}.`,
      "Intent",
    );
  if (!sourceLeg.isValidAddress(request.userSourceAddress))
    throw badAddress("user_source_address", chains.source);
  if (!sourceLeg.isValidAddress(request.refundAddress)) throw badAddress("refund_address", chains.source);
  if (!destLeg.isValidAddress(request.userDestinationAddress))
    throw badAddress("user_destination_address", chains.dest);

  const needsKey = sourceNetwork.type === "BITCOIN" || sourceNetwork.type === "SOLANA";
  const publicKey = request.userSourcePublicKey?.replace(/^0x/, "") ?? null;
  if (needsKey && publicKey === null)
    throw createInvalidRequestError(
      "PUBLIC_KEY_REQUIRED",
      `\`user_source_public_key\` is required when the source network is ${sourceNetwork.type}.`,
      "Intent",
    );
  // At most 65 bytes (an uncompressed secp256k1 key, the longest any chain uses): EVM and Tron do not check the key,
  // and it is stored with the intent.
  if (publicKey !== null && !/^(?:[0-9a-fA-F]{2}){1,65}$/.test(publicKey))
    throw createInvalidRequestError(
      "INVALID_PUBLIC_KEY",
      "`user_source_public_key` must be hex of at most 65 bytes.",
      "Intent",
    );
  if (!sourceLeg.publicKeyMatchesAddress(request.userSourceAddress, publicKey))
    throw createInvalidRequestError(
      "PUBLIC_KEY_MISMATCH",
      "`user_source_public_key` does not belong to `user_source_address`.",
      "Intent",
    );
  return publicKey;
}

/** The new intent's row, `Initiated`, with a fresh 32-byte secret; what the source leg builds is not in it yet. */
function newIntentRow({
  core,
  request,
  quote,
  publicKey,
  approvalMechanism,
}: ServiceCall<IntentRequest> & {
  quote: QuoteRecord;
  publicKey: string | null;
  approvalMechanism: IntentRow["approvalMechanism"];
}): IntentRow {
  const wire = quote.wire;
  const now = core.clock.nowMs();
  const secret = randomBytes(32);
  return {
    id: randomUUID(),
    quoteId: quote.id,
    swapId: randomUUID(),
    status: "Initiated",
    pendingStep: null,
    sourceChain: wire.source_chain as number,
    sourceToken: wire.source_token as string,
    sourceAmountLots: wire.source_amount_lots as string,
    sourceAmountDecimals: wire.source_amount_decimals as number,
    destChain: wire.dest_chain as number,
    destToken: wire.dest_token as string,
    destAmountDecimals: wire.dest_amount_decimals as number,
    minDestAmountLots: wire.min_dest_amount_lots as string,
    maxDestAmountLots: wire.max_dest_amount_lots as string,
    userSourceAddress: request.userSourceAddress,
    userSourcePublicKey: publicKey,
    userDestinationAddress: request.userDestinationAddress,
    refundAddress: request.refundAddress,
    retailUserId: request.retailUserId ?? quote.retailUserId,
    secret: secret.toString("hex"),
    secretHash: `0x${createHash("sha256").update(secret).digest("hex")}`,
    deadlineSecs: Math.floor(now / 1000) + core.config.intentTtlSecs,
    approvalMechanism,
    paramsToSign: null,
    legData: null,
    proxyAddress: "",
    deliveredAmountLots: null,
    userDepositTx: null,
    fulfillTx: null,
    swapTx: null,
    refundTx: null,
    lastError: null,
    createdAtMs: now,
    updatedAtMs: now,
    userDepositedAtMs: null,
    kycRequestedAtMs: null,
    fulfilledAtMs: null,
    swappedAtMs: null,
    refundedAtMs: null,
    enginesId: core.enginesId,
  };
}

/**
 * Store the intent (quote marked used in the same transaction). When that fails (the quote was taken meanwhile, or
 * the database refused or lost the write, so the caller gets an error and never sees `params_to_sign`), whatever the
 * source leg set aside for it on its engine (the Bitcoin leg's coin reservations) is released before the error goes
 * on: a retry, or the user's next intent, can use the same coins at once. Engines keep no trace of an intent that
 * was never acknowledged.
 */
async function storeOrRelease({
  core,
  row,
  partnerId,
  leg,
}: {
  core: Core;
  row: IntentRow;
  partnerId: string;
  leg: ChainLeg;
}): Promise<void> {
  let inserted: boolean;
  try {
    inserted = await core.store.insertIntentFromQuote(row, { partnerId });
  } catch (error) {
    await releaseApproval({ core, row, leg });
    throw error;
  }
  if (inserted) return;
  await releaseApproval({ core, row, leg });
  throw quoteAlreadyUsed();
}

/** Undo the leg's side of an intent that was not stored; a failure to do so is logged, never hides the first error. */
async function releaseApproval({ core, row, leg }: { core: Core; row: IntentRow; leg: ChainLeg }) {
  if (!leg.releaseApproval) return;
  try {
    await leg.releaseApproval(toLegIntent(row));
  } catch (error) {
    core.log(
      `intent ${row.id}: could not release what its source leg set aside (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

/**
 * Create an intent from an unexpired, unused quote (spec 4.2): validate the addresses with the legs, draw a
 * 32-byte secret (kept server-side; only its SHA-256 is returned), build `params_to_sign` with the source leg,
 * then mark the quote used and store the intent in one transaction. Of two concurrent creates from one quote,
 * exactly one succeeds.
 */
export async function createIntent({
  core,
  request,
}: ServiceCall<IntentRequest>): Promise<Record<string, Json>> {
  const quote = await findUsableQuote(core, request);
  const chains = { source: quote.wire.source_chain as number, dest: quote.wire.dest_chain as number };
  const legs = findLegs(core, chains.source, chains.dest);
  const publicKey = checkAddressesAndKey(request, legs, chains);
  const row = newIntentRow({
    core,
    request,
    quote,
    publicKey,
    approvalMechanism: legs.sourceLeg.approvalMechanism,
  });
  const built = await callLeg({
    entity: "Intent",
    call: () => legs.sourceLeg.buildApproval(toLegIntent(row)),
  });
  const stored: IntentRow = {
    ...row,
    paramsToSign: built.paramsToSign,
    legData: built.legData,
    proxyAddress: built.proxyAddress,
  };
  await storeOrRelease({ core, row: stored, partnerId: request.partnerId, leg: legs.sourceLeg });
  return {
    intent_id: stored.id,
    deadline_secs: stored.deadlineSecs,
    secret_hash: stored.secretHash,
    approval_mechanism: stored.approvalMechanism,
    params_to_sign: stored.paramsToSign,
  };
}
