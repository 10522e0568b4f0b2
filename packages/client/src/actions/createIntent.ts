import type { BaseClient, CallOptions } from "../client/types.js";
import { type ClientError, clientError, type RequestError } from "../errors/codes.js";
import { assertNonEmptyString, assertPattern, assertUuid } from "../internal/assertInput.js";
import { parseIntent } from "../internal/wire.js";
import type { Intent, Network, Quote } from "../types.js";
import { isQuoteExpired } from "../utils/isQuoteExpired.js";
import { getNetworks, networksCacheKey } from "./getNetworks.js";

/** Parameters of {@link createIntent}. */
export interface CreateIntentParameters extends CallOptions {
  /**
   * The quote, or its id. Passing the `Quote` object lets the client refuse an expired quote locally
   * (`QUOTE_EXPIRED`, nothing sent) and learn the source network to check `userSourcePublicKey`.
   */
  quote: Quote | string;
  refundAddress: string;
  userSourceAddress: string;
  userDestinationAddress: string;
  /**
   * Hex, without `0x` (a `0x` prefix is stripped). Required when the source network is Bitcoin (33-byte compressed
   * secp256k1 key) or Solana (32-byte ed25519 key).
   */
  userSourcePublicKey?: string | undefined;
  retailUserId?: string | undefined;
  /**
   * The source network's type (`EVM`, `TRON`, `BITCOIN`, `SOLANA`). When omitted and `quote` is an object, the client
   * looks it up in the networks catalogue (one cached `GET /networks` per client). With only a quote id and no type,
   * the public-key requirement is left to the service. If that lookup fails, `createIntent` fails with its error
   * (its `details.path` is `/affiliate/v1/networks`) and no intent is sent.
   */
  sourceNetworkType?: string | undefined;
  /** Current time in unix ms for the expiry check. Default `Date.now()`. */
  now?: number | undefined;
}

/** What {@link createIntent} returns (awaited). */
export type CreateIntentReturnType = Intent;

/** The errors {@link createIntent} can throw. */
export type CreateIntentErrorType = RequestError | ClientError<"QUOTE_EXPIRED">;

/** The source public key each network type needs, as hex: a 33-byte compressed secp256k1 key, a 32-byte ed25519 key. */
const publicKeyPatterns: Record<string, RegExp> = {
  BITCOIN: /^0[23][0-9a-fA-F]{64}$/,
  SOLANA: /^[0-9a-fA-F]{64}$/,
};

/**
 * Creates an intent from a quote (`POST /affiliate/v1/intents`). Every input is checked before the request.
 *
 * Never retried: if the call fails with `TIMEOUT`, `NETWORK_ERROR` or a 5xx, the service may or may not have created
 * the intent. Do not blindly call again; look first: `getSwapHistory({ wallet: userSourceAddress, active: true })`
 * lists the wallet's open intents (match on source/destination token and amount). If none is there, ask for a fresh
 * quote and create again (a quote id can be used once).
 *
 * @throws `QUOTE_EXPIRED` when the given quote object is past its expiry; `INVALID_INPUT` naming the field.
 *
 * @example
 * const intent = await createIntent(client, { quote, userSourceAddress: "0xUser…", refundAddress: "0xUser…", userDestinationAddress: "7xKX…" });
 * if (intent.approvalMechanism === "permit2") console.log(intent.paramsToSign.witnessHash);
 */
export async function createIntent(
  client: BaseClient,
  parameters: CreateIntentParameters,
): Promise<CreateIntentReturnType> {
  const quote = parameters.quote;
  const quoteId = typeof quote === "string" ? quote : quote?.id;
  assertUuid(quoteId, "quote");
  if (typeof quote === "object" && isQuoteExpired({ quote, now: parameters.now })) {
    throw clientError("QUOTE_EXPIRED", {
      quoteId,
      expiryMs: quote.expiryMs,
    });
  }
  assertNonEmptyString(parameters.refundAddress, "refundAddress");
  assertNonEmptyString(parameters.userSourceAddress, "userSourceAddress");
  assertNonEmptyString(parameters.userDestinationAddress, "userDestinationAddress");
  if (parameters.retailUserId !== undefined) assertUuid(parameters.retailUserId, "retailUserId");
  let publicKey = parameters.userSourcePublicKey;
  if (publicKey !== undefined) {
    assertPattern(publicKey, /^(0x)?([0-9a-fA-F]{2})+$/, "userSourcePublicKey", "must be a hex string");
    publicKey = publicKey.replace(/^0x/, "");
  }
  const networkType =
    parameters.sourceNetworkType ??
    (typeof quote === "object" ? await lookUpNetworkType(client, quote.sourceChain, parameters) : undefined);
  const pattern = networkType === undefined ? undefined : publicKeyPatterns[networkType.toUpperCase()];
  // a missing key fails here too: the network needs one
  if (pattern)
    assertPattern(publicKey, pattern, "userSourcePublicKey", `must be a ${networkType} public key`);
  return client.request({
    method: "POST",
    path: "/affiliate/v1/intents",
    body: {
      quote_id: quoteId,
      refund_address: parameters.refundAddress,
      retail_user_id: parameters.retailUserId,
      user_destination_address: parameters.userDestinationAddress,
      user_source_address: parameters.userSourceAddress,
      user_source_public_key: publicKey,
    },
    idempotent: false,
    parse: parseIntent,
    signal: parameters.signal,
    timeoutMs: parameters.timeoutMs,
  });
}

async function lookUpNetworkType(
  client: BaseClient,
  networkId: number,
  call: CallOptions,
): Promise<string | undefined> {
  let networks = client.cache.get(networksCacheKey) as Promise<Network[]> | undefined;
  if (!networks) {
    // shared by concurrent callers, so one caller's AbortSignal must not cancel it for the others;
    // an aborted caller still stops before its POST (the transport checks the signal first)
    networks = getNetworks(client, { timeoutMs: call.timeoutMs });
    client.cache.set(networksCacheKey, networks);
    networks.catch(() => client.cache.delete(networksCacheKey));
  }
  return (await networks).find((network) => network.id === networkId)?.type;
}
