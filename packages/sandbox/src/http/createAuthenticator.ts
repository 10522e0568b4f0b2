import { createHash, type KeyObject } from "node:crypto";
import type { Context } from "hono";
import { JsonSyntaxError } from "../json/parseJsonLossless.js";
import type { Clock } from "../legs/types.js";
import type { RateLimit } from "../types.js";
import { createApiError, createBadRequestError } from "./apiError.js";
import { formatCanonicalRequest } from "./formatCanonicalRequest.js";
import { importSigningKey, type PublicKeyConfig } from "./importSigningKey.js";
import { verifyRequestSignature } from "./verifyRequestSignature.js";

/** How far `x-api-timestamp` may be from the service's clock, seconds. */
export const MAX_TIMESTAMP_SKEW_SECS = 60;
/** How long a seen nonce is remembered, ms (well beyond the timestamp window). */
const NONCE_MEMORY_MS = 10 * 60_000;
/** Longest `x-api-nonce` accepted: every one is kept in memory for 10 minutes (a UUID is 36 characters). */
export const MAX_NONCE_LENGTH = 128;

/** Who a request comes from, once its credentials are checked. */
export interface Caller {
  /**
   * The partner that owns what this request creates and the only one that sees it: a hash of the API key, or of
   * the signing key's id for signed requests (never the key itself).
   */
  partnerId: string;
}

/**
 * Checks one request's credentials; throws an `ApiError` (401 or 429) or returns the caller.
 * `clientAddress` is the peer's IP address (the rate limit's unit while any key is accepted).
 */
export type Authenticator = (c: Context, clientAddress: string) => Promise<Caller>;

/** The partner id of an API key or a signing key id: hex of SHA-256 over a domain tag and the id (the key never leaves). */
export function toPartnerId(kind: "api-key" | "signing-key", id: string): string {
  return createHash("sha256").update(`swapintent-sandbox/${kind}\0${id}`).digest("hex").slice(0, 32);
}

/** A 401 {@link ApiError} (entity `Other`). */
const unauthorized = (code: string, message: string) =>
  createApiError({ status: 401, code, message, entity: "Other" });

/**
 * A map whose expired entries are swept when it outgrows twice its size after the last sweep: amortized O(1) per
 * request, where sweeping on every insert above a fixed size would cost O(n) each once n live entries exceed it.
 */
function createSweptMap<V>(expired: (value: V, nowMs: number) => boolean) {
  const entries = new Map<string, V>();
  let sweepAt = 10_000;
  return {
    get: (key: string) => entries.get(key),
    set(key: string, value: V, nowMs: number) {
      if (entries.size > sweepAt) {
        for (const [k, v] of entries) if (expired(v, nowMs)) entries.delete(k);
        sweepAt = Math.max(10_000, entries.size * 2);
      }
      entries.set(key, value);
    },
  };
}

/** The nonces seen per signing key, each remembered for {@link NONCE_MEMORY_MS}. */
function createNonceMemory() {
  const nonces = createSweptMap<number>((expires, nowMs) => expires < nowMs);
  return {
    /** Where a nonce of a key is remembered. */
    slot: (keyId: string, nonce: string) => `${keyId}\0${nonce}`,
    seen(slot: string, nowMs: number) {
      const expires = nonces.get(slot);
      return expires !== undefined && expires >= nowMs;
    },
    remember: (slot: string, nowMs: number) => nonces.set(slot, nowMs + NONCE_MEMORY_MS, nowMs),
  };
}

/** The text a request signature covers (`METHOD:PATH:QUERY:BODY`); 400 for a body or query that cannot be read. */
async function readCanonicalRequest(c: Context): Promise<string> {
  const url = new URL(c.req.url);
  try {
    return formatCanonicalRequest({
      method: c.req.method,
      path: url.pathname,
      rawQuery: url.search.replace(/^\?/, ""),
      body: await c.req.text(),
    });
  } catch (error) {
    if (error instanceof JsonSyntaxError)
      throw createBadRequestError("MALFORMED_JSON", "The body is not JSON.", "Other");
    // decodeURIComponent of a malformed escape (`%zz`, a cut UTF-8 sequence) while canonicalizing the query
    if (error instanceof URIError)
      throw createBadRequestError(
        "MALFORMED_QUERY",
        "The query string holds a malformed percent-escape.",
        "Other",
      );
    throw error;
  }
}

/** The signature headers, checked for presence, age and form before any signature work; 401 otherwise. */
function readSignatureHeaders(c: Context, nowMs: number) {
  const signature = c.req.header("x-api-signature");
  const timestamp = c.req.header("x-api-timestamp");
  const nonce = c.req.header("x-api-nonce");
  if (!signature || !timestamp)
    throw unauthorized("SIGNATURE_REQUIRED", "Requests must carry x-api-signature and x-api-timestamp.");
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowMs / 1000 - Number(timestamp)) > MAX_TIMESTAMP_SKEW_SECS)
    throw unauthorized(
      "STALE_TIMESTAMP",
      "x-api-timestamp is more than 60 seconds from the service's clock.",
    );
  if (c.req.method === "POST" && !nonce)
    throw unauthorized("NONCE_REQUIRED", "POST requests must carry x-api-nonce.");
  if (nonce !== undefined && nonce.length > MAX_NONCE_LENGTH)
    throw unauthorized("NONCE_INVALID", `x-api-nonce is longer than ${MAX_NONCE_LENGTH} characters.`);
  return { signature, nonce };
}

/** Checks a signed request under the key `keyId` names; resolves to the key's canonical id, or throws a 401. */
function createSignatureCheck(publicKeys: readonly PublicKeyConfig[], clock: Clock) {
  const signingKeys = new Map<string, { keyId: string; key: KeyObject }>();
  for (const config of publicKeys) {
    const imported = importSigningKey(config);
    for (const id of imported.acceptedIds) signingKeys.set(id, { keyId: imported.keyId, key: imported.key });
  }
  const nonces = createNonceMemory();
  const reused = () => unauthorized("NONCE_REUSED", "This x-api-nonce was already used.");
  const check = async (c: Context, keyId: string): Promise<string> => {
    const signingKey = signingKeys.get(keyId);
    if (!signingKey)
      throw unauthorized("UNKNOWN_API_KEY", "The x-api-key does not name a registered public key.");
    const nowMs = clock.nowMs();
    const { signature, nonce } = readSignatureHeaders(c, nowMs);
    // Nonces are per signing key (its canonical id, so a replay under the key's other accepted id is still caught).
    const slot = nonce === undefined ? undefined : nonces.slot(signingKey.keyId, nonce);
    if (slot !== undefined && nonces.seen(slot, nowMs)) throw reused();
    const canonical = await readCanonicalRequest(c);
    if (!verifyRequestSignature({ key: signingKey.key, canonical, signature }))
      throw unauthorized("INVALID_SIGNATURE", "x-api-signature does not verify over the request.");
    // Checked again with no await before remembering it: copies of one request sent together all passed the first
    // check while the body was being read, and only one of them may go on.
    if (slot !== undefined) {
      if (nonces.seen(slot, nowMs)) throw reused();
      nonces.remember(slot, nowMs);
    }
    return signingKey.keyId;
  };
  return { enabled: signingKeys.size > 0, check };
}

/** Counts requests per key in fixed windows; a request over `rateLimit` is a 429 with `retryAfterSecs`. */
function createRateCounter(rateLimit: RateLimit | undefined, clock: Clock) {
  const windowMs = (rateLimit?.windowSecs ?? 0) * 1000;
  const windows = createSweptMap<{ startMs: number; count: number }>(
    (w, nowMs) => nowMs - w.startMs >= windowMs,
  );
  return (key: string, unit: string) => {
    if (!rateLimit) return;
    const nowMs = clock.nowMs();
    let window = windows.get(key);
    if (!window || nowMs - window.startMs >= windowMs) {
      window = { startMs: nowMs, count: 0 };
      windows.set(key, window, nowMs);
    }
    window.count++;
    if (window.count > rateLimit.requests)
      throw createApiError({
        status: 429,
        code: "RATE_LIMITED",
        message: `More than ${rateLimit.requests} requests in ${rateLimit.windowSecs} s for this ${unit}.`,
        entity: "Other",
        retryAfterSecs: Math.max(1, Math.ceil((window.startMs + windowMs - nowMs) / 1000)),
      });
  };
}

/**
 * Create the `/affiliate/v1` authenticator (design §2):
 * - `X-Api-Key` must be present; with `apiKeys` it must be one of them, otherwise any key is accepted and each
 *   distinct key is its own partner;
 * - with `publicKeys`, every request must be signed: `x-api-key` names the key (base64 SHA-256 of its PKCS#1 DER,
 *   the SPKI-DER hash of earlier clients, or the id the partner was issued), `x-api-signature` verifies over
 *   `METHOD:PATH:QUERY:BODY`, `x-api-timestamp` is within 60 s of the clock and `x-api-nonce` (required on POST)
 *   was never seen before for this key (checked again, atomically, once the signature verified); the partner is the signing key;
 * - with `rateLimit`: while any key is accepted, at most `requests` per window per client address (keys cost
 *   nothing then, so counting per key would let a client rotate keys past it); with `apiKeys` or `publicKeys`,
 *   per partner. Over it: 429 with `Retry-After`.
 */
export function createAuthenticator({
  apiKeys,
  publicKeys,
  rateLimit,
  clock,
}: {
  apiKeys: readonly string[];
  publicKeys: readonly PublicKeyConfig[];
  rateLimit: RateLimit | undefined;
  clock: Clock;
}): Authenticator {
  const allowed = new Set(apiKeys);
  const signatures = createSignatureCheck(publicKeys, clock);
  const anyKey = allowed.size === 0 && !signatures.enabled;
  const countRequest = createRateCounter(rateLimit, clock);
  return async (c, clientAddress) => {
    const key = c.req.header("x-api-key");
    if (!key) throw unauthorized("MISSING_API_KEY", "The X-Api-Key header is required.");
    let partnerId: string;
    if (signatures.enabled) partnerId = toPartnerId("signing-key", await signatures.check(c, key));
    else {
      if (allowed.size > 0 && !allowed.has(key))
        throw unauthorized("INVALID_API_KEY", "The API key is not valid.");
      partnerId = toPartnerId("api-key", key);
    }
    if (anyKey) countRequest(`address ${clientAddress}`, "client address");
    else countRequest(`partner ${partnerId}`, "partner");
    return { partnerId };
  };
}
