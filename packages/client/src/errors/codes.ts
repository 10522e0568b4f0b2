/**
 * Every `code` a `@swapintent/client` error can carry. Codes are stable: callers switch on them.
 *
 * - `INVALID_INPUT`: a parameter failed a local check before any request; `details.field` names it.
 * - `INVALID_OPTIONS`: `createClient` options are unusable (for example both `apiKey` and `requestSigning`).
 * - `QUOTE_EXPIRED`: the quote passed to `createIntent` is past its `expiry`; nothing was sent.
 * - `HTTP_ERROR`: an HTTP error status without a more specific code below.
 * - `BAD_REQUEST` (400), `UNAUTHORIZED` (401), `FORBIDDEN` (403), `NOT_FOUND` (404), `UNPROCESSABLE` (422,
 *   a business rule such as an expired or used quote), `RATE_LIMITED` (429), `SERVER_ERROR` (5xx).
 *   These carry `details.status`, the server's `serverCode`, `serverMessage`, `entity` and `retryAfterMs` where given.
 * - `TIMEOUT`: no complete response within `timeoutMs`.
 * - `ABORTED`: the caller's `AbortSignal` fired.
 * - `NETWORK_ERROR`: the request never got an HTTP response (connection refused, reset, DNS).
 * - `REDIRECT_REFUSED`: the service answered with a redirect; the client follows none (no key or body leaves the base URL).
 * - `RESPONSE_TOO_LARGE`: the body passed `maxResponseBytes`; reading stopped there.
 * - `RESPONSE_INVALID`: the response body is not JSON or fails the schema; `details.body` holds the raw body.
 * - `WAIT_TIMEOUT`: `waitForIntent` / `watchIntent` reached its `timeoutMs` before a terminal status.
 * - `SIGNING_FAILED`: WebCrypto could not sign the request (unusable key).
 */
export type ClientErrorCode =
  | "INVALID_INPUT"
  | "INVALID_OPTIONS"
  | "QUOTE_EXPIRED"
  | "HTTP_ERROR"
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "UNPROCESSABLE"
  | "RATE_LIMITED"
  | "SERVER_ERROR"
  | "TIMEOUT"
  | "ABORTED"
  | "NETWORK_ERROR"
  | "REDIRECT_REFUSED"
  | "RESPONSE_TOO_LARGE"
  | "RESPONSE_INVALID"
  | "WAIT_TIMEOUT"
  | "SIGNING_FAILED";
