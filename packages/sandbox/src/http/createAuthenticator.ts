import type { Context } from "hono";
import { JsonSyntaxError } from "../json/parseJsonLossless.js";
import type { Clock } from "../legs/types.js";
import type { RateLimit } from "../types.js";
import { createApiError } from "./apiError.js";
import { formatCanonicalRequest } from "./formatCanonicalRequest.js";
import { importSigningKey } from "./importSigningKey.js";
import { verifyRequestSignature } from "./verifyRequestSignature.js";

/** How far `x-api-timestamp` may be from the service's clock, seconds. */
export const MAX_TIMESTAMP_SKEW_SECS = 60;
/** How long a seen nonce is remembered, ms (well beyond the timestamp window). */
const NONCE_MEMORY_MS = 10 * 60_000;

/** Checks one request's credentials; throws an `ApiError` (401 or 429) or returns the caller's key. */
export type Authenticator = (c: Context) => Promise<string>;

/**
 * Create the `/affiliate/v1` authenticator (design §2):
 * - `X-Api-Key` must be present; with `apiKeys` it must be one of them, otherwise any key is accepted;
 * - with `publicKeys`, every request must be signed: `x-api-key` is the base64 SHA-256 of the key's SPKI DER,
 *   `x-api-signature` verifies over `METHOD:PATH:QUERY:BODY`, `x-api-timestamp` is within 60 s of the clock
 *   and `x-api-nonce` (required on POST) was never seen before;
 * - with `rateLimit`, a key that exceeds it gets 429 with `Retry-After`.
 */
export function createAuthenticator({
  apiKeys,
  publicKeys,
  rateLimit,
  clock,
}: {
  apiKeys: readonly string[];
  publicKeys: readonly string[];
  rateLimit: RateLimit | undefined;
  clock: Clock;
}): Authenticator {
  const allowed = new Set(apiKeys);
  const signingKeys = new Map(publicKeys.map((pem) => importSigningKey(pem)).map((k) => [k.keyId, k.key]));
  const nonces = new Map<string, number>();
  const windows = new Map<string, { startMs: number; count: number }>();
  const unauthorized = (code: string, message: string) =>
    createApiError({ status: 401, code, message, entity: "Other" });

  const rememberNonce = (nonce: string, nowMs: number) => {
    if (nonces.size > 10_000) {
      for (const [n, expires] of nonces) if (expires < nowMs) nonces.delete(n);
    }
    nonces.set(nonce, nowMs + NONCE_MEMORY_MS);
  };

  const checkSignature = async (c: Context, keyId: string) => {
    const key = signingKeys.get(keyId);
    if (!key) throw unauthorized("UNKNOWN_API_KEY", "The x-api-key does not name a registered public key.");
    const signature = c.req.header("x-api-signature");
    const timestamp = c.req.header("x-api-timestamp");
    const nonce = c.req.header("x-api-nonce");
    if (!signature || !timestamp)
      throw unauthorized("SIGNATURE_REQUIRED", "Requests must carry x-api-signature and x-api-timestamp.");
    const nowMs = clock.nowMs();
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowMs / 1000 - Number(timestamp)) > MAX_TIMESTAMP_SKEW_SECS)
      throw unauthorized(
        "STALE_TIMESTAMP",
        "x-api-timestamp is more than 60 seconds from the service's clock.",
      );
    if (c.req.method === "POST" && !nonce)
      throw unauthorized("NONCE_REQUIRED", "POST requests must carry x-api-nonce.");
    if (nonce !== undefined) {
      const seen = nonces.get(nonce);
      if (seen !== undefined && seen >= nowMs)
        throw unauthorized("NONCE_REUSED", "This x-api-nonce was already used.");
    }
    const url = new URL(c.req.url);
    let canonical: string;
    try {
      canonical = formatCanonicalRequest({
        method: c.req.method,
        path: url.pathname,
        rawQuery: url.search.replace(/^\?/, ""),
        body: await c.req.text(),
      });
    } catch (error) {
      if (error instanceof JsonSyntaxError)
        throw createApiError({
          status: 400,
          code: "MALFORMED_JSON",
          message: "The body is not JSON.",
          entity: "Other",
        });
      throw error;
    }
    if (!verifyRequestSignature({ key, canonical, signature }))
      throw unauthorized("INVALID_SIGNATURE", "x-api-signature does not verify over the request.");
    if (nonce !== undefined) rememberNonce(nonce, nowMs);
  };

  const checkRate = (key: string) => {
    if (!rateLimit) return;
    const nowMs = clock.nowMs();
    const windowMs = rateLimit.windowSecs * 1000;
    let window = windows.get(key);
    if (!window || nowMs - window.startMs >= windowMs) {
      window = { startMs: nowMs, count: 0 };
      windows.set(key, window);
    }
    window.count++;
    if (window.count > rateLimit.requests) {
      const retryAfterSecs = Math.max(1, Math.ceil((window.startMs + windowMs - nowMs) / 1000));
      throw createApiError({
        status: 429,
        code: "RATE_LIMITED",
        message: `More than ${rateLimit.requests} requests in ${rateLimit.windowSecs} s for this API key.`,
        entity: "Other",
        retryAfterSecs,
      });
    }
  };

  return async (c) => {
    const key = c.req.header("x-api-key");
    if (!key) throw unauthorized("MISSING_API_KEY", "The X-Api-Key header is required.");
    if (signingKeys.size > 0) await checkSignature(c, key);
    else if (allowed.size > 0 && !allowed.has(key))
      throw unauthorized("INVALID_API_KEY", "The API key is not valid.");
    checkRate(key);
    return key;
  };
}
