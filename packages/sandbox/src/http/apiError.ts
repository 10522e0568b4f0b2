import { SwapIntentError } from "@swapintent/client";

/** The `entity` of an error body (design §2). */
export type ErrorEntity = "Quote" | "Intent" | "Approval" | "Swap" | "Network" | "Token" | "Other";

/** HTTP statuses the service answers errors with. */
export type ErrorStatus = 400 | 401 | 404 | 422 | 429 | 500 | 503;

/**
 * An error the HTTP layer turns into `{code, message, entity, type}`: `code` is the HTTP status (design §2),
 * `type` the stable string code (for example `QUOTE_EXPIRED`), `message` the short message.
 */
export class ApiError extends SwapIntentError {
  override name = "ApiError";
  constructor(
    readonly status: ErrorStatus,
    code: string,
    shortMessage: string,
    readonly entity: ErrorEntity,
    options: { details?: Record<string, unknown>; cause?: unknown; retryAfterSecs?: number } = {},
  ) {
    super(code, shortMessage, options);
    this.retryAfterSecs = options.retryAfterSecs;
  }
  /** For 429: seconds the client should wait. */
  readonly retryAfterSecs: number | undefined;
}

/**
 * Create an {@link ApiError}.
 *
 * @example createApiError({ status: 422, code: "QUOTE_EXPIRED", message: "The quote has expired.", entity: "Quote" })
 */
export function createApiError({
  status,
  code,
  message,
  entity,
  retryAfterSecs,
  cause,
}: {
  status: ErrorStatus;
  code: string;
  message: string;
  entity: ErrorEntity;
  retryAfterSecs?: number;
  cause?: unknown;
}): ApiError {
  return new ApiError(status, code, message, entity, { retryAfterSecs, cause });
}

/** The 404 for an intent id the caller has no intent under (one spelling for every route that looks one up). */
export function createIntentNotFoundError(): ApiError {
  return createApiError({
    status: 404,
    code: "INTENT_NOT_FOUND",
    message: "No intent has this id.",
    entity: "Intent",
  });
}

/** A 400 {@link ApiError}: the request itself is malformed (a missing field, a bad id, an unknown token...). */
export function createBadRequestError(code: string, message: string, entity: ErrorEntity): ApiError {
  return createApiError({ status: 400, code, message, entity });
}

/** A 422 {@link ApiError}: the request is well formed but breaks a business rule (an expired quote, a used one...). */
export function createUnprocessableError(code: string, message: string, entity: ErrorEntity): ApiError {
  return createApiError({ status: 422, code, message, entity });
}
