import { BaseError, isSwapIntentError } from "../errors/baseError.js";
import { createHttpError } from "../internal/createHttpError.js";
import { parseRetryAfter } from "../internal/parseRetryAfter.js";
import { abortedError, sleep } from "../internal/sleep.js";
import { createRequestSigner, type RequestSigner } from "../signing/createRequestSigner.js";
import { formatCanonicalRequest } from "../signing/formatCanonicalRequest.js";
import { formatQueryString } from "../signing/formatQueryString.js";
import { stringifyCanonicalJson } from "../signing/stringifyCanonicalJson.js";
import type { BaseClient, ClientHooks, ClientOptions, ClientRequest, RetryOptions } from "./types.js";

const redacted = "[redacted]";
const credentialHeaders = new Set(["x-api-key", "x-api-signature", "authorization", "cookie"]);
const retryableStatuses = new Set([429, 502, 503, 504]);

interface Transport {
  baseUrl: string;
  fetch: typeof fetch;
  timeoutMs: number;
  retry: Required<RetryOptions> | undefined;
  hooks: ClientHooks;
  headers: Record<string, string>;
  apiKey: string | undefined;
  signer: RequestSigner | undefined;
}

/**
 * Creates the transport-only client: auth, timeouts, retries and hooks, without any action attached.
 * Pair it with the standalone actions (`getIntentStatus(client, { intentId })`) to ship only what you import;
 * `createClient` wraps this and binds every action.
 *
 * Retries: only idempotent calls (GETs and `getBestQuote`), on a network error, a per-attempt timeout, 429
 * (waiting `Retry-After` when given) and 502/503/504, with exponential backoff and jitter.
 *
 * @throws `INVALID_OPTIONS` when `baseUrl` is not an absolute http(s) URL or both `apiKey` and `requestSigning` are set.
 */
export function createBaseClient(options: ClientOptions): BaseClient {
  const transport = resolveOptions(options);
  return {
    baseUrl: transport.baseUrl,
    cache: new Map(),
    request: (request) => sendRequest(transport, request),
  };
}

function resolveOptions(options: ClientOptions): Transport {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch (error) {
    throw new BaseError("INVALID_OPTIONS", "`baseUrl` must be an absolute URL.", {
      details: { field: "baseUrl" },
      cause: error,
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new BaseError("INVALID_OPTIONS", "`baseUrl` must be an http or https URL.", {
      details: { field: "baseUrl" },
    });
  }
  if (options.apiKey !== undefined && options.requestSigning !== undefined) {
    throw new BaseError(
      "INVALID_OPTIONS",
      "Give either `apiKey` or `requestSigning`: both use the `x-api-key` header.",
      { details: { field: "apiKey" } },
    );
  }
  if (options.apiKey !== undefined && (typeof options.apiKey !== "string" || options.apiKey === "")) {
    throw new BaseError("INVALID_OPTIONS", "`apiKey` must be a non-empty string.", {
      details: { field: "apiKey" },
    });
  }
  const fetchFn = options.fetch ?? globalThis.fetch;
  if (typeof fetchFn !== "function") {
    throw new BaseError("INVALID_OPTIONS", "No `fetch` available: pass `fetch` in the options.", {
      details: { field: "fetch" },
    });
  }
  const retry =
    options.retry === false
      ? undefined
      : {
          retries: options.retry?.retries ?? 2,
          baseDelayMs: options.retry?.baseDelayMs ?? 250,
          maxDelayMs: options.retry?.maxDelayMs ?? 5000,
          maxRetryAfterMs: options.retry?.maxRetryAfterMs ?? 30_000,
        };
  return {
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    fetch: fetchFn,
    timeoutMs: options.timeoutMs ?? 30_000,
    retry,
    hooks: options.hooks ?? {},
    headers: options.headers ?? {},
    apiKey: options.apiKey,
    signer: options.requestSigning ? createRequestSigner({ signing: options.requestSigning }) : undefined,
  };
}

async function sendRequest<T>(transport: Transport, request: ClientRequest<T>): Promise<T> {
  const queryString = formatQueryString({ query: request.query });
  const url = `${transport.baseUrl}${request.path}${queryString ? `?${queryString}` : ""}`;
  const body = request.body === undefined ? undefined : stringifyCanonicalJson({ value: request.body });
  const retries = request.idempotent && transport.retry ? transport.retry.retries : 0;
  for (let attempt = 0; ; attempt++) {
    try {
      return await sendAttempt(transport, request, { url, body, attempt });
    } catch (error) {
      const delayMs =
        attempt < retries && transport.retry && isSwapIntentError(error)
          ? retryDelay(error, attempt, transport.retry)
          : undefined;
      if (delayMs === undefined) throw error;
      callHook(transport.hooks.onRetry, {
        method: request.method,
        url,
        attempt,
        delayMs,
        error: error as BaseError,
      });
      await sleep(delayMs, request.signal);
    }
  }
}

/** Milliseconds before the next attempt, or `undefined` when `error` must not be retried. */
function retryDelay(error: BaseError, attempt: number, retry: Required<RetryOptions>): number | undefined {
  const status = error.details.status;
  const retryable =
    error.code === "NETWORK_ERROR" ||
    error.code === "TIMEOUT" ||
    (typeof status === "number" && retryableStatuses.has(status));
  if (!retryable) return undefined;
  const retryAfterMs = error.details.retryAfterMs;
  if (typeof retryAfterMs === "number")
    return retryAfterMs <= retry.maxRetryAfterMs ? retryAfterMs : undefined;
  const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** attempt);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

async function sendAttempt<T>(
  transport: Transport,
  request: ClientRequest<T>,
  { url, body, attempt }: { url: string; body: string | undefined; attempt: number },
): Promise<T> {
  const { method, path, signal } = request;
  if (signal?.aborted) throw abortedError(signal);
  const headers: Record<string, string> = { accept: "application/json", ...transport.headers };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (transport.apiKey !== undefined) headers["x-api-key"] = transport.apiKey;
  if (transport.signer) {
    const canonical = formatCanonicalRequest({
      method,
      path: new URL(url).pathname,
      query: request.query,
      body,
    });
    Object.assign(headers, await transport.signer({ method, canonical }));
  }
  callHook(transport.hooks.onRequest, { method, url, headers: redact(headers), body, attempt });

  const controller = new AbortController();
  let timedOut = false;
  const timeoutMs = request.timeoutMs ?? transport.timeoutMs;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  const started = Date.now();
  let response: Response;
  let text: string;
  try {
    // called unbound: browsers throw "Illegal invocation" when fetch runs with another `this`
    const fetchFn = transport.fetch;
    response = await fetchFn(url, { method, headers, body: body ?? null, signal: controller.signal });
    text = await response.text();
  } catch (error) {
    if (signal?.aborted) throw abortedError(signal);
    if (timedOut) {
      throw new BaseError("TIMEOUT", `${method} ${path} got no complete response within ${timeoutMs} ms.`, {
        details: { method, path, timeoutMs },
        cause: error,
      });
    }
    throw new BaseError("NETWORK_ERROR", `${method} ${path} failed before an HTTP response arrived.`, {
      details: { method, path },
      cause: error,
    });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
  if (transport.hooks.onResponse) {
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      responseHeaders[key] = value;
    });
    callHook(transport.hooks.onResponse, {
      method,
      url,
      status: response.status,
      headers: redact(responseHeaders),
      body: text,
      attempt,
      durationMs: Date.now() - started,
    });
  }
  if (!response.ok) {
    throw createHttpError({
      status: response.status,
      statusText: response.statusText,
      body: text,
      method,
      path,
      retryAfterMs: parseRetryAfter(response.headers.get("retry-after")),
    });
  }
  let json: unknown;
  if (text.trim() === "") {
    if (!request.allowEmptyBody)
      throw invalidResponse("The response body is empty.", { method, path, body: text });
    json = undefined;
  } else {
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw invalidResponse("The response body is not valid JSON.", { method, path, body: text }, error);
    }
  }
  try {
    return request.parse(json);
  } catch (error) {
    if (isSwapIntentError(error, "RESPONSE_INVALID")) {
      throw invalidResponse(error.shortMessage, { ...error.details, method, path, body: text }, error);
    }
    throw error;
  }
}

function invalidResponse(message: string, details: Record<string, unknown>, cause?: unknown) {
  return new BaseError("RESPONSE_INVALID", message, { details, cause });
}

function redact(headers: Record<string, string>): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    copy[key] = credentialHeaders.has(key.toLowerCase()) ? redacted : value;
  }
  return copy;
}

function callHook<E>(hook: ((event: E) => void) | undefined, event: E): void {
  if (!hook) return;
  try {
    hook(event);
  } catch {
    // hooks observe; they never break a call
  }
}
