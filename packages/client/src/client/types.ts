import type { ClientError } from "../errors/codes.js";
import type { RequestSigner } from "../signing/createRequestSigner.js";
import type { QueryParameters } from "../signing/formatQueryString.js";

/** Retry policy for idempotent calls (GETs and `getBestQuote`). `createIntent` and `submitApproval` are never retried. */
export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  retries?: number | undefined;
  /** First backoff delay; doubles per retry, with jitter (a random value between half and all of it). Default 250. */
  baseDelayMs?: number | undefined;
  /** Cap on one backoff delay. Default 5000. */
  maxDelayMs?: number | undefined;
  /** A `Retry-After` longer than this is not waited for: the call fails with `RATE_LIMITED` at once. Default 30000. */
  maxRetryAfterMs?: number | undefined;
}

/**
 * What `onRequest` sees. Credentials (`x-api-key`, `x-api-signature`, `authorization`, `proxy-authorization`,
 * `cookie`) are replaced by `"[redacted]"`; `onResponse` sees a `set-cookie` replaced the same way.
 */
export interface RequestEvent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** 0 for the first attempt, 1 for the first retry, ... */
  attempt: number;
}

/** What `onResponse` sees: one HTTP response, whether it succeeded or not. */
export interface ResponseEvent {
  method: string;
  url: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  attempt: number;
  durationMs: number;
}

/** What `onRetry` sees before the client waits `delayMs` and tries again. */
export interface RetryEvent {
  method: string;
  url: string;
  /** The attempt that failed (0 = first). */
  attempt: number;
  delayMs: number;
  error: ClientError;
}

/** Observers of the transport. They must not throw (an exception from a hook, or the rejection of an async one, is ignored). */
export interface ClientHooks {
  /** Called before each HTTP attempt is sent. */
  onRequest?: ((event: RequestEvent) => void) | undefined;
  /** Called when an attempt's response was read (any status), with its status, headers and body. */
  onResponse?: ((event: ResponseEvent) => void) | undefined;
  /** Called before waiting to retry a failed attempt, with the delay and the error. */
  onRetry?: ((event: RetryEvent) => void) | undefined;
}

/** Options of `createSwapIntentClient` / `createBaseClient`. */
export interface ClientOptions {
  /** Service base URL, for example `https://host` (paths `/affiliate/v1/...` are appended). */
  baseUrl: string;
  /**
   * Sent as `X-Api-Key`. Exclusive with `requestSigning`, which uses the same header for the key id.
   * Required unless `requestSigning` or `auth: "none"` is given: an `undefined` key (an unset environment
   * variable) fails at construction with `INVALID_OPTIONS`, rather than calling the service without credentials.
   */
  apiKey?: string | undefined;
  /**
   * Sign every request (design §2): `createRequestSigner({ privateKey, publicKey })`, or your own
   * {@link RequestSigner}. A separate function, so a client without signing ships none of its code.
   */
  requestSigning?: RequestSigner | undefined;
  /** `"none"`: call the service without any credentials, on purpose (for example a local sandbox that needs none). */
  auth?: "none" | undefined;
  /**
   * `true`: allow a plain `http:` `baseUrl` to a host other than loopback (for example a sandbox container in CI,
   * `http://sandbox:8080`). The API key or request signature then crosses the network in clear text. Without it,
   * `http:` is accepted only for `localhost`, `*.localhost`, 127.0.0.0/8 and `[::1]`.
   */
  allowInsecureHttp?: boolean | undefined;
  /** The `fetch` to use. Default `globalThis.fetch`. */
  fetch?: typeof fetch | undefined;
  /** Time limit of one HTTP attempt, from signing the request (`requestSigning`) until the whole body is read. Default 30000. */
  timeoutMs?: number | undefined;
  /**
   * Longest response body read, in bytes. Default 8 MiB (8388608). A longer body is cancelled as soon as it
   * passes the limit and the call fails with `RESPONSE_TOO_LARGE`.
   */
  maxResponseBytes?: number | undefined;
  /** Retry policy of idempotent calls, or `false` for none. */
  retry?: RetryOptions | false | undefined;
  /** Observers of requests, responses and retries. */
  hooks?: ClientHooks | undefined;
  /**
   * Extra headers sent with every request (not shown to hooks if named like a credential), names in lower case.
   * The client's own `x-api-key`, `content-type` and signing headers replace one here that differs only in case.
   */
  headers?: Record<string, string> | undefined;
}

/** Per-call options every action accepts. */
export interface CallOptions {
  /** Cancels the call (and its retries); the call fails with `ABORTED`. */
  signal?: AbortSignal | undefined;
  /** Overrides the client's `timeoutMs` for this call (per attempt). */
  timeoutMs?: number | undefined;
}

/** A JSON request body; numbers that must keep exact decimal text are wrapped internally. */
export type RequestBody = Record<string, unknown>;

/** One request as actions describe it to the transport. */
export interface ClientRequest<T> extends CallOptions {
  method: "GET" | "POST";
  path: string;
  query?: QueryParameters | undefined;
  body?: RequestBody | undefined;
  /** Only idempotent requests are retried. */
  idempotent: boolean;
  /** Turns the parsed JSON into the domain value; throws `RESPONSE_INVALID` on a bad shape. */
  parse: (json: unknown) => T;
  /** When true an empty 2xx body is accepted and `parse` receives `undefined`. */
  allowEmptyBody?: boolean | undefined;
}

/**
 * The minimal client every action takes as its first argument: configuration plus `request`.
 * `createSwapIntentClient` returns one of these with all actions bound; `createBaseClient` returns only this,
 * so an app that imports a few actions ships only those.
 */
export interface BaseClient {
  readonly baseUrl: string;
  /** Sends one request through timeouts, retries, auth and hooks, and parses the response. */
  readonly request: <T>(request: ClientRequest<T>) => Promise<T>;
  /** Per-client memo (for example the networks catalogue that `createIntent` consults). */
  readonly cache: Map<string, unknown>;
}
