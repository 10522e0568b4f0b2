import { hasErrorCode } from "./hasErrorCode.js";
import { type CodedError, SwapIntentError } from "./swapIntentError.js";

/** Facts of an HTTP error status: what was asked, what the service answered (scrubbed of credentials, bounded). */
export type HttpErrorDetails = {
  /** The HTTP status. */
  status: number;
  /** `GET` or `POST`. */
  method: string;
  /** The request path, without the query. */
  path: string;
  /** The error body's `code` (its HTTP status or a text code). */
  serverCode?: number | string;
  /** The error body's `type`, the variant some deployments send. */
  serverType?: string;
  /** The error body's `message` (or `error`). */
  serverMessage?: string;
  /** The error body's `entity` (`Quote`, `Intent`, `Approval`, `Swap`, `Network`, `Token`, `Other`). */
  entity?: string;
  /** The raw body when it held no message, cut to 1000 characters. */
  body?: string;
  /** How long `Retry-After` asked to wait, in ms. */
  retryAfterMs?: number;
};

/** One problem a response schema found: where (`path`, dotted, `""` for the body) and what was expected. */
export type ResponseIssue = {
  path: string;
  message: string;
};

/** Why a request got no HTTP response (see `NETWORK_ERROR`); `unknown` when the runtime gave no code (a browser). */
export type NetworkFailure = "refused" | "dns" | "tls" | "reset" | "timeout" | "unreachable" | "unknown";

/** Facts of a request: what was asked. */
export type RequestDetails = {
  /** `GET` or `POST`. */
  method: string;
  /** The request path, without the query. */
  path: string;
};

/**
 * Every `code` a `@swapintent/client` error can carry, with the facts its `details` hold. Codes are stable:
 * callers switch on them, and narrowing `code` (a `switch`, or `isClientError(error, code)`) narrows `details`.
 */
export interface ClientErrorDetails {
  /** A parameter failed a local check before any request (a per-call `timeoutMs` too); nothing was sent. */
  INVALID_INPUT: {
    /** The parameter as the caller wrote it, for example `amount` or `approval.signedData`. */
    field: string;
    /** What it must be. */
    reason: string;
    /**
     * The value given: a string under 24 characters, a number, bigint, boolean or null as is; a longer string (a
     * key's, seed's or signature's length) or an object only as its `typeof`.
     */
    value?: unknown;
  };
  /** `createSwapIntentClient` options or request-signing keys are unusable (for example both `apiKey` and `requestSigning`). */
  INVALID_OPTIONS: {
    /** The option, for example `baseUrl`, `apiKey`, `headers` or `requestSigning.privateKey`. */
    field: string;
    /** What it must be, where the message does not say it. */
    reason?: string;
    /** The value given, for a number out of range. */
    value?: unknown;
    /** A header's name (cut to 100 characters), never its value. */
    header?: string;
  };
  /** The quote passed to `createIntent` is past its `expiry`; nothing was sent. */
  QUOTE_EXPIRED: { quoteId: string; expiryMs: number };
  /** An HTTP error status without a more specific code below. */
  HTTP_ERROR: HttpErrorDetails;
  /** HTTP 400: a malformed or out-of-bounds request. */
  BAD_REQUEST: HttpErrorDetails;
  /** HTTP 401: a missing or invalid key or signature. */
  UNAUTHORIZED: HttpErrorDetails;
  /** HTTP 403. */
  FORBIDDEN: HttpErrorDetails;
  /** HTTP 404: an unknown id. */
  NOT_FOUND: HttpErrorDetails;
  /** HTTP 422: a business rule, such as an expired or used quote. */
  UNPROCESSABLE: HttpErrorDetails;
  /** HTTP 429, with `retryAfterMs` when the service sent `Retry-After`. */
  RATE_LIMITED: HttpErrorDetails;
  /** HTTP 5xx. */
  SERVER_ERROR: HttpErrorDetails;
  /** No complete response within `timeoutMs`. */
  TIMEOUT: RequestDetails & { timeoutMs: number };
  /** The caller's `AbortSignal` fired; `cause` is the signal's reason. */
  ABORTED: Record<string, never>;
  /** The request never got an HTTP response (connection refused, reset, DNS, TLS, timeout). */
  NETWORK_ERROR: RequestDetails & {
    /** Where the request went: `scheme://host:port` of `baseUrl`, never its path, a credential or a query. */
    origin: string;
    /** Why, from the runtime's code: `refused`, `dns`, `tls`, `reset`, `timeout`, `unreachable` or `unknown`. */
    failure: NetworkFailure;
    /** The runtime's own code, for example `ECONNREFUSED` or `ENOTFOUND`, when it gave one. */
    causeCode?: string;
  };
  /** The service answered with a redirect; the client follows none (no key or body leaves the base URL). */
  REDIRECT_REFUSED: RequestDetails & { status: number };
  /** The body passed `maxResponseBytes`; reading stopped there. */
  RESPONSE_TOO_LARGE: RequestDetails & { status: number; maxResponseBytes: number; receivedBytes: number };
  /**
   * The response body is not JSON or fails the schema, or a page does not start at the offset asked for.
   * `issues` holds the first problem found; `body` the raw body (cut, credentials redacted).
   */
  RESPONSE_INVALID: Partial<RequestDetails> & { issues?: readonly ResponseIssue[]; body?: string };
  /** `waitForIntent` / `watchIntent` reached its `timeoutMs` before a terminal status. */
  WAIT_TIMEOUT: {
    intentId: string;
    /** The `timeoutMs` given. */
    timeoutMs?: number | undefined;
    /** The service's spelling of the last known status, `"Unknown"` for any other text, `null` before the first. */
    lastStatus?: string | null;
  };
  /** WebCrypto could not sign the request (an unusable key, or no WebCrypto). */
  SIGNING_FAILED: Record<string, never>;
}

/** Every `code` a `@swapintent/client` error can carry (see {@link ClientErrorDetails}). */
export type ClientErrorCode = keyof ClientErrorDetails;

/** An error of `@swapintent/client`: one `SwapIntentError` per code, so narrowing `code` narrows `details`. */
export type ClientError<C extends ClientErrorCode = ClientErrorCode> = CodedError<ClientErrorDetails, C>;

/**
 * The codes any call through the transport can end with: a per-call option or request body refused before sending
 * (`INVALID_INPUT`), a header a request signer returned that HTTP cannot carry (`INVALID_OPTIONS`), the signer's
 * own failure (`SIGNING_FAILED`), a stop (`TIMEOUT`, `ABORTED`), no response (`NETWORK_ERROR`), a refused or
 * unreadable response, and each HTTP error status. Actions add their own codes to these (`QUOTE_EXPIRED`,
 * `WAIT_TIMEOUT`).
 */
export type RequestErrorCode =
  | "INVALID_INPUT"
  | "INVALID_OPTIONS"
  | "SIGNING_FAILED"
  | "TIMEOUT"
  | "ABORTED"
  | "NETWORK_ERROR"
  | "REDIRECT_REFUSED"
  | "RESPONSE_TOO_LARGE"
  | "RESPONSE_INVALID"
  | "HTTP_ERROR"
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "UNPROCESSABLE"
  | "RATE_LIMITED"
  | "SERVER_ERROR";

/** The errors of one call through the transport (see {@link RequestErrorCode}), narrowed by `code`. */
export type RequestError = ClientError<RequestErrorCode>;

/** The exact runtime list of client codes; the compiler keeps it equal to {@link ClientErrorCode}. */
const clientErrorCodes: Record<ClientErrorCode, true> = {
  INVALID_INPUT: true,
  INVALID_OPTIONS: true,
  QUOTE_EXPIRED: true,
  HTTP_ERROR: true,
  BAD_REQUEST: true,
  UNAUTHORIZED: true,
  FORBIDDEN: true,
  NOT_FOUND: true,
  UNPROCESSABLE: true,
  RATE_LIMITED: true,
  SERVER_ERROR: true,
  TIMEOUT: true,
  ABORTED: true,
  NETWORK_ERROR: true,
  REDIRECT_REFUSED: true,
  RESPONSE_TOO_LARGE: true,
  RESPONSE_INVALID: true,
  WAIT_TIMEOUT: true,
  SIGNING_FAILED: true,
};

/**
 * True when `error` is an error of `@swapintent/client` (one of its exact codes), optionally with the given code;
 * narrowing by it narrows `details`. Works across duplicated copies of the package, like `isSwapIntentError`.
 *
 * @example
 * if (isClientError(error, "RATE_LIMITED")) await sleep(error.details.retryAfterMs ?? 1000);
 */
export function isClientError<C extends ClientErrorCode>(error: unknown, code?: C): error is ClientError<C> {
  return hasErrorCode(error, clientErrorCodes, code);
}

/** Builds a client error with the given message; the compiler checks `details` against `code`. */
export function createClientError<C extends ClientErrorCode>(
  code: C,
  shortMessage: string,
  details: ClientErrorDetails[C],
  cause?: unknown,
): ClientError<C> {
  return new SwapIntentError(code, shortMessage, { details, cause }) as ClientError<C>;
}

/** Builds a client error whose `shortMessage` {@link formatClientMessage} writes from the code and the details. */
export function clientError<C extends ClientErrorCode>(
  code: C,
  details: ClientErrorDetails[C],
  cause?: unknown,
): ClientError<C> {
  return createClientError(code, formatClientMessage(code, details), details, cause);
}

/**
 * The one sentence of a client error that is not about a parameter (those say `Invalid input: \`field\` reason.`):
 * `METHOD /path: ` when the error concerns a request, the code as words (`TIMEOUT` → `timeout`), then the HTTP
 * status and the server's message, or the first response issue, where the details hold them.
 *
 * @example
 * formatClientMessage("RESPONSE_INVALID", { method: "GET", path: "/x", issues: [{ path: "id", message: "missing" }] });
 * // "GET /x: response invalid (id: missing)."
 */
export function formatClientMessage(code: ClientErrorCode, details: object): string {
  const { method, path, status, serverMessage, issues } = details as Partial<
    HttpErrorDetails & ClientErrorDetails["RESPONSE_INVALID"]
  >;
  const issue = issues?.[0];
  const text = `${method ? `${method} ${path}: ` : ""}${code.toLowerCase().replace(/_/g, " ")}${
    status ? ` (HTTP ${status})` : ""
  }${serverMessage ? `: ${serverMessage}` : ""}${issue ? ` (${issue.path || "body"}: ${issue.message})` : ""}.`;
  return text[0]?.toUpperCase() + text.slice(1);
}
