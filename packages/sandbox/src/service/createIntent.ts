import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { IntentRow } from "../db/intentRow.js";
import { createApiError } from "../http/apiError.js";
import type { Json } from "../legs/types.js";
import { callLeg } from "./callLeg.js";
import type { Core } from "./core.js";
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

/**
 * Create an intent from an unexpired, unused quote (spec 4.2): validate the addresses with the legs, draw a
 * 32-byte secret (kept server-side; only its SHA-256 is returned), build `params_to_sign` with the source leg,
 * then mark the quote used and store the intent in one transaction. Of two concurrent creates from one quote,
 * exactly one succeeds.
 */
export async function createIntent({
  core,
  request,
}: {
  core: Core;
  request: IntentRequest;
}): Promise<Record<string, Json>> {
  const quote = await core.store.getQuote(request.quoteId, request.partnerId);
  if (!quote)
    throw createApiError({
      status: 404,
      code: "QUOTE_NOT_FOUND",
      message: "No quote has this id.",
      entity: "Quote",
    });
  const alreadyUsed = () =>
    createApiError({
      status: 422,
      code: "QUOTE_ALREADY_USED",
      message: "An intent was already created from this quote.",
      entity: "Quote",
    });
  if (quote.usedByIntent !== null) throw alreadyUsed();
  const now = core.clock.nowMs();
  if (now > quote.expiryMs)
    throw createApiError({
      status: 422,
      code: "QUOTE_EXPIRED",
      message: "The quote has expired; ask for a new one.",
      entity: "Quote",
    });

  const wire = quote.wire;
  const sourceChain = wire.source_chain as number;
  const destChain = wire.dest_chain as number;
  const sourceLeg = core.legs.get(sourceChain);
  const destLeg = core.legs.get(destChain);
  const sourceNetwork = core.findNetwork(sourceChain);
  if (!sourceLeg || !destLeg || !sourceNetwork)
    throw createApiError({
      status: 422,
      code: "NETWORK_UNAVAILABLE",
      message: "The quote's network is not served.",
      entity: "Network",
    });

  const badAddress = (field: string) =>
    createApiError({
      status: 400,
      code: "INVALID_ADDRESS",
      message: `\`${field}\` is not a valid address on network ${field === "user_destination_address" ? destChain : sourceChain}.`,
      entity: "Intent",
    });
  if (!sourceLeg.isValidAddress(request.userSourceAddress)) throw badAddress("user_source_address");
  if (!sourceLeg.isValidAddress(request.refundAddress)) throw badAddress("refund_address");
  if (!destLeg.isValidAddress(request.userDestinationAddress)) throw badAddress("user_destination_address");

  const needsKey = sourceNetwork.type === "BITCOIN" || sourceNetwork.type === "SOLANA";
  const publicKey = request.userSourcePublicKey?.replace(/^0x/, "") ?? null;
  if (needsKey && publicKey === null)
    throw createApiError({
      status: 400,
      code: "PUBLIC_KEY_REQUIRED",
      message: `\`user_source_public_key\` is required when the source network is ${sourceNetwork.type}.`,
      entity: "Intent",
    });
  if (publicKey !== null && !/^(?:[0-9a-fA-F]{2})+$/.test(publicKey))
    throw createApiError({
      status: 400,
      code: "INVALID_PUBLIC_KEY",
      message: "`user_source_public_key` must be hex.",
      entity: "Intent",
    });
  if (!sourceLeg.publicKeyMatchesAddress(request.userSourceAddress, publicKey))
    throw createApiError({
      status: 400,
      code: "PUBLIC_KEY_MISMATCH",
      message: "`user_source_public_key` does not belong to `user_source_address`.",
      entity: "Intent",
    });

  const secret = randomBytes(32);
  const secretHash = `0x${createHash("sha256").update(secret).digest("hex")}` as const;
  const row: IntentRow = {
    id: randomUUID(),
    quoteId: quote.id,
    swapId: randomUUID(),
    status: "Initiated",
    pendingStep: null,
    sourceChain,
    sourceToken: wire.source_token as string,
    sourceAmountLots: wire.source_amount_lots as string,
    sourceAmountDecimals: wire.source_amount_decimals as number,
    destChain,
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
    secretHash,
    deadlineSecs: Math.floor(now / 1000) + core.config.intentTtlSecs,
    approvalMechanism: sourceLeg.approvalMechanism,
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
  };

  const built = await callLeg({ entity: "Intent", call: () => sourceLeg.buildApproval(toLegIntent(row)) });
  const stored: IntentRow = {
    ...row,
    paramsToSign: built.paramsToSign,
    legData: built.legData,
    proxyAddress: built.proxyAddress,
  };
  if (!(await core.store.insertIntentFromQuote(stored, { partnerId: request.partnerId })))
    throw alreadyUsed();
  return {
    intent_id: stored.id,
    deadline_secs: stored.deadlineSecs,
    secret_hash: stored.secretHash,
    approval_mechanism: stored.approvalMechanism,
    params_to_sign: stored.paramsToSign,
  };
}
