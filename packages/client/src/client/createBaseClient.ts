import { type ClientError, clientError, createClientError, type ResponseIssue } from "../errors/codes.js";
import { isSwapIntentError, type SwapIntentError } from "../errors/swapIntentError.js";
import { assertBaseUrl, assertCredentials, invalidOption } from "../internal/assertClientOptions.js";
import { assertInteger, maxTimerMs } from "../internal/assertInput.js";
import { createHttpError } from "../internal/createHttpError.js";
import { networkError } from "../internal/networkError.js";
import { callError, discardBody, readResponseText } from "../internal/readResponseText.js";
import { maxServerTextLength, redacted, scrubText } from "../internal/scrubText.js";
import { abortedError, deadline, sleep } from "../internal/sleep.js";
import { formatQueryString } from "../signing/formatQueryString.js";
import { stringifyCanonicalJson } from "../signing/stringifyCanonicalJson.js";
import type { BaseClient, ClientHooks, ClientOptions, ClientRequest, RetryOptions } from "./types.js";

// `set-cookie` only ever arrives (a session a gateway hands out); `proxy-authorization` a caller may send in `headers`
const credentialHeaders = new Set([
  "x-api-key",
  "x-api-signature",
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
]);
const retryableStatuses = new Set([429, 502, 503, 504]);

/**
 * What a server may echo of a credential header's value: the value (any length), and each part of 8 characters
 * or more after the scheme, between spaces, `;` and `,`, without a `name=` before it or quotes around it (the token
 * of `Bearer …`, `Basic`'s base64, a cookie's value). A scheme (`Signature`), a name or a short part is no secret.
 */
function secretParts(value: string): string[] {
  return [
    value,
    ...value
      .replace(/^[\w-]+ /, "")
      .split(/[\s;,]+/)
      .map((part) => part.replace(/^[\w-]+=(?=[^=])|"/g, ""))
      .filter((part) => part.length > 7),
  ];
}

/** Default `maxResponseBytes`: 8 MiB, far above any page the service sends (100 tokens are about 30 kB). */
const defaultMaxResponseBytes = 8 * 1024 * 1024;

type ResolvedRetry = { [K in keyof RetryOptions]-?: number };

/** The client options with every default filled in. */
interface Transport extends ClientOptions {
  /** `scheme://host:port` of `baseUrl`, as errors name it. */
  origin: string;
  fetch: typeof fetch;
  timeoutMs: number;
  maxResponseBytes: number;
  retry: ResolvedRetry | undefined;
  hooks: ClientHooks;
}

/** Retry numbers a client uses when its options leave them out. */
const retryDefaults: ResolvedRetry = {
  retries: 2,
  baseDelayMs: 250,
  maxDelayMs: 5000,
  maxRetryAfterMs: 30_000,
};

/** Parameters of {@link createBaseClient}: the client options. */
export type CreateBaseClientParameters = ClientOptions;

/** What {@link createBaseClient} returns. */
export type CreateBaseClientReturnType = BaseClient;

/** The errors {@link createBaseClient} can throw. */
export type CreateBaseClientErrorType = ClientError<"INVALID_OPTIONS">;

/**
 * Creates the transport-only client: auth, timeouts, retries and hooks, without any action attached.
 * Pair it with the standalone actions (`getIntentStatus(client, { intentId })`) to ship only what you import;
 * `createSwapIntentClient` wraps this and binds every action.
 *
 * Retries: only idempotent calls (GETs and `getBestQuote`), on a network error, a per-attempt timeout, 429
 * (waiting `Retry-After` when given) and 502/503/504, with exponential backoff and jitter.
 *
 * Redirects are never followed (`REDIRECT_REFUSED`), so neither the key, a signature nor a body reaches another
 * URL; bodies longer than `maxResponseBytes` are cut off (`RESPONSE_TOO_LARGE`); server text in errors is
 * bounded and scrubbed of the client's credentials.
 *
 * @throws `INVALID_OPTIONS` when `baseUrl` is not an absolute http(s) URL, when `timeoutMs` or a `retry` number is
 * not an integer from 0 to 2^31 - 1 (`retries`: 0 to 100), when no credentials are given
 * (no `apiKey`, no `requestSigning`, and no explicit `auth: "none"`), or when both `apiKey` and `requestSigning` are set.
 *
 * @example
 * import { createBaseClient, getIntentStatus } from "@swapintent/client";
 * const base = createBaseClient({ baseUrl: "https://swap.example", apiKey: process.env.SWAPINTENT_API_KEY });
 * const status = await getIntentStatus(base, { intentId: "9b8a7c6d-5e4f-4a3b-9c2d-1e0f2a3b4c5d" });
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
  const url = assertBaseUrl(options);
  const baseUrl = url.href;
  assertCredentials(options);
  checkHeaders({ ...options.headers, ...(options.apiKey ? { "x-api-key": options.apiKey } : {}) });
  const { maxResponseBytes = defaultMaxResponseBytes, timeoutMs = 30_000 } = options;
  // every duration becomes a timer: above 2^31 - 1 ms Node and browsers fire it at once, so a "year" of timeout
  // or Retry-After ceiling would turn into none; and `retries: Infinity` would retry a 429 storm forever
  assertInteger(maxResponseBytes, "maxResponseBytes", 1, undefined, "INVALID_OPTIONS");
  assertInteger(timeoutMs, "timeoutMs", 0, maxTimerMs, "INVALID_OPTIONS");
  const retry = { ...retryDefaults };
  for (const field of Object.keys(retry) as Array<keyof ResolvedRetry>) {
    const value = options.retry ? options.retry[field] : undefined;
    if (value !== undefined)
      assertInteger(value, `retry.${field}`, 0, field === "retries" ? 100 : maxTimerMs, "INVALID_OPTIONS");
    retry[field] = value ?? retry[field];
  }
  const fetchFn = options.fetch ?? globalThis.fetch;
  if (typeof fetchFn !== "function") throw invalidOption("fetch", "is missing (no global fetch)");
  return {
    ...options,
    // `(?<!\/)`: the trailing run is tried from its first slash only (a plain `\/+$` retries from every slash of an
    // inner run, quadratic)
    baseUrl: baseUrl.replace(/(?<!\/)\/+$/, ""),
    origin: `${url.protocol}//${url.hostname}:${url.port || (url.protocol === "https:" ? 443 : 80)}`,
    fetch: fetchFn,
    timeoutMs,
    maxResponseBytes,
    retry: options.retry === false ? undefined : retry,
    hooks: options.hooks ?? {},
  };
}

async function sendRequest<T>(transport: Transport, request: ClientRequest<T>): Promise<T> {
  const queryString = formatQueryString({ query: request.query });
  const url = `${transport.baseUrl}${request.path}${queryString ? `?${queryString}` : ""}`;
  const body = request.body === undefined ? undefined : stringifyCanonicalJson({ value: request.body });
  if (request.timeoutMs !== undefined) assertInteger(request.timeoutMs, "timeoutMs", 0, maxTimerMs);
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
        error: error as ClientError,
      });
      await sleep(delayMs, request.signal);
    }
  }
}

/** Milliseconds before the next attempt, or `undefined` when `error` must not be retried. */
function retryDelay(error: SwapIntentError, attempt: number, retry: ResolvedRetry): number | undefined {
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
  const { method, signal } = request;
  const headers: Record<string, string> = { accept: "application/json", ...transport.headers };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (transport.apiKey !== undefined) headers["x-api-key"] = transport.apiKey;
  const timeoutMs = request.timeoutMs ?? transport.timeoutMs;
  // a signal aborted already never fires its event: nothing is signed or sent
  if (signal?.aborted) throw abortedError(signal);
  // one deadline for the whole attempt, signing included: a signer (an HSM, a remote key service), a custom
  // fetch or a body that ignores the signal still ends the attempt when it aborts
  const timeout = deadline(signal, timeoutMs);
  const stop = new Promise<never>((_, reject) => timeout.signal.addEventListener("abort", reject));
  try {
    if (transport.requestSigning) {
      const signing = transport.requestSigning({
        method,
        path: new URL(url).pathname,
        query: request.query,
        body,
      });
      // the signer's own error reaches the caller as it is (never retried); only a stop becomes ABORTED or TIMEOUT
      Object.assign(headers, await Promise.race([stop, signing]).catch(stopped));
    }
    // checked after signing too: a stop meanwhile sends nothing, even through a fetch that ignores the signal
    if (timeout.signal.aborted) stopped();
    const sent = checkHeaders(headers);
    const secrets = Object.entries(sent)
      .filter(([key]) => credentialHeaders.has(key))
      .flatMap(([, value]) => secretParts(value));
    callHook(transport.hooks.onRequest, {
      method,
      url,
      headers: redact(Object.entries(sent)),
      body,
      attempt,
    });
    const started = Date.now();
    const { response, text } = await fetchText(
      transport,
      request,
      { url, headers: sent, body },
      stop,
      timeout.signal,
    ).catch((error) =>
      stopped(
        error,
        isSwapIntentError(error) ? error : networkError(request, transport.origin, error, secrets),
      ),
    );
    if (transport.hooks.onResponse) {
      callHook(transport.hooks.onResponse, {
        method,
        url,
        status: response.status,
        headers: redact(response.headers, secrets),
        body: scrubText(text, secrets),
        attempt,
        durationMs: Date.now() - started,
      });
    }
    if (!response.ok) {
      throw createHttpError(response, text, request, secrets);
    }
    return parseBody(request, text, secrets);
  } finally {
    timeout.done();
  }

  /** Throws `ABORTED` or `TIMEOUT` (caused by `error`) when the attempt was stopped, else `otherwise`. */
  function stopped(error?: unknown, otherwise = error): never {
    if (signal?.aborted) throw abortedError(signal);
    throw timeout.timedOut() ? callError("TIMEOUT", request, { timeoutMs }, error) : otherwise;
  }
}

/**
 * One HTTP exchange under the attempt's deadline (`signal`; `stop` rejects when it fires): redirects are never
 * followed (a redirect, even one a custom `fetch` followed anyway, is `REDIRECT_REFUSED`) and the body is read up to
 * `maxResponseBytes`. Its errors are mapped by the caller.
 */
async function fetchText(
  transport: Transport,
  request: ClientRequest<unknown>,
  { url, headers, body }: { url: string; headers: Record<string, string>; body: string | undefined },
  stop: Promise<never>,
  signal: AbortSignal,
): Promise<{ response: Response; text: string }> {
  // called unbound: browsers throw "Illegal invocation" when fetch runs with another `this`
  const fetchFn = transport.fetch;
  const response = await Promise.race([
    stop,
    fetchFn(url, { method: request.method, headers, body: body ?? null, signal, redirect: "manual" }),
  ]);
  if (isRedirect(response)) {
    discardBody(response.body);
    throw callError("REDIRECT_REFUSED", request, { status: response.status });
  }
  return {
    response,
    text: await Promise.race([stop, readResponseText(response, transport.maxResponseBytes, request, signal)]),
  };
}

/** A redirect as Node shows it (a 3xx status), as browsers show it (`opaqueredirect`), or one already followed. */
function isRedirect(response: Response): boolean {
  return response.type === "opaqueredirect" || response.redirected || ((response.status / 100) | 0) === 3;
}

/**
 * Parses a 2xx body. Every server-controlled text that reaches the error (the raw body, a field name in an
 * issue path, a value quoted in the message) is scrubbed of `secrets` and bounded; the original error is not
 * kept as `cause`, since it holds that text unscrubbed (V8's JSON `SyntaxError` quotes the input, too).
 */
function parseBody<T>(request: ClientRequest<T>, text: string, secrets: readonly string[]): T {
  const { method, path } = request;
  const clean = (value: string, max = maxServerTextLength) => scrubText(value, secrets, max);
  let json: unknown;
  try {
    // an empty body is `undefined` where the call allows one; anything else must be JSON
    json = request.allowEmptyBody && text.trim() === "" ? undefined : JSON.parse(text);
  } catch {
    throw clientError("RESPONSE_INVALID", { method, path, body: clean(text) });
  }
  try {
    return request.parse(json);
  } catch (error) {
    if (!isSwapIntentError(error, "RESPONSE_INVALID")) throw error;
    const { issues } = error.details;
    throw clientError("RESPONSE_INVALID", {
      ...error.details,
      ...(Array.isArray(issues) && {
        issues: (issues as ResponseIssue[]).map((issue) => ({
          path: clean(issue.path, 200),
          message: issue.message,
        })),
      }),
      method,
      path,
      body: clean(text),
    });
  }
}

/**
 * Every header as fetch will send it, in a new object: names in lower case, a later name replacing an earlier one
 * that differs only in case (so the client's own `x-api-key`, `content-type` and signature headers, set after the
 * caller's, are sent alone: fetch would join both values with a comma); leading and trailing spaces and tabs
 * trimmed (fetch trims them, so the value scrubbed from server text is the value the server saw: a key read from
 * a file with its newline would otherwise never be found in an echo). A name that is not an HTTP token or a value with a control or
 * non-Latin-1 character fails with `INVALID_OPTIONS` naming the header, never quoting it (fetch's own error
 * quotes the value, and it could be a credential).
 */
function checkHeaders(headers: Record<string, string>): Record<string, string> {
  const sent: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    // `(?<!…)`: the trailing run is tried from its first character only (a plain `[…]+$` retries from every
    // space of an inner run, quadratic)
    const trimmed =
      typeof value === "string" ? value.replace(/^[\t\n\r ]+|(?<![\t\n\r ])[\t\n\r ]+$/g, "") : value;
    if (
      !/^[!#$%&'*+.^_`|~\w-]+$/.test(name) ||
      typeof trimmed !== "string" ||
      !/^[\t\x20-\x7e\x80-\xff]*$/.test(trimmed)
    )
      throw createClientError("INVALID_OPTIONS", "A header cannot be sent over HTTP.", {
        field: name.toLowerCase() === "x-api-key" ? "apiKey" : "headers",
        header: name.slice(0, 100),
      });
    sent[name.toLowerCase()] = trimmed;
  }
  return sent;
}

/**
 * Headers for a hook: credential headers replaced by `[redacted]`, and `secrets` scrubbed from the others' names
 * (a server can echo the key as a header name, which arrives lower-cased) and values.
 */
function redact(
  headers: Iterable<[string, string]>,
  secrets: readonly string[] = [],
): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const [key, value] of headers) {
    copy[scrubText(key, secrets)] = credentialHeaders.has(key.toLowerCase())
      ? redacted
      : scrubText(value, secrets);
  }
  return copy;
}

function callHook<E>(hook: ((event: E) => void) | undefined, event: E): void {
  if (!hook) return;
  try {
    // an async hook's rejection is ignored too: unhandled, it would end a Node process
    Promise.resolve(hook(event)).catch(() => {});
  } catch {
    // hooks observe; they never break a call
  }
}
