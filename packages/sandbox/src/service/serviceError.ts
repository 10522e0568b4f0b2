import { SwapIntentError } from "@swapintent/client";

/** What an error is about (the `entity` of its answer, design §2). */
export type ErrorEntity = "Quote" | "Intent" | "Approval" | "Swap" | "Network" | "Token" | "Other";

/**
 * What went wrong, in the service's own terms; the HTTP edge (`http/apiError.ts`) maps each kind to a status:
 * `invalid` (the request is malformed or out of bounds), `unauthenticated` (no valid key or signature), `not_found`
 * (no such id for this caller), `rejected` (well formed, but a business rule refuses it: an expired or used quote,
 * an invalid state, a refused signature), `rate_limited`, `unavailable` (the service cannot do it now).
 */
export type ServiceErrorKind =
  | "invalid"
  | "unauthenticated"
  | "not_found"
  | "rejected"
  | "rate_limited"
  | "unavailable";

/** A refusal of the service, with a stable `code` (for example `QUOTE_EXPIRED`) and the entity it is about. */
export class ServiceError extends SwapIntentError {
  override name = "ServiceError";
  constructor(
    readonly kind: ServiceErrorKind,
    code: string,
    shortMessage: string,
    readonly entity: ErrorEntity,
    options: { cause?: unknown; retryAfterSecs?: number } = {},
  ) {
    super(code, shortMessage, options);
    this.retryAfterSecs = options.retryAfterSecs;
  }
  /** For `rate_limited`: seconds the caller should wait. */
  readonly retryAfterSecs: number | undefined;
}

/**
 * Create a {@link ServiceError}.
 *
 * @example
 * throw createServiceError({ kind: "rejected", code: "QUOTE_EXPIRED", message: "The quote expired.", entity: "Quote" });
 */
export function createServiceError({
  kind,
  code,
  message,
  entity,
  retryAfterSecs,
  cause,
}: {
  kind: ServiceErrorKind;
  code: string;
  message: string;
  entity: ErrorEntity;
  retryAfterSecs?: number;
  cause?: unknown;
}): ServiceError {
  return new ServiceError(kind, code, message, entity, { retryAfterSecs, cause });
}

/** The refusal for an intent id the caller has no intent under (one spelling for every path that looks one up). */
export function createIntentNotFoundError(): ServiceError {
  return createServiceError({
    kind: "not_found",
    code: "INTENT_NOT_FOUND",
    message: "No intent has this id.",
    entity: "Intent",
  });
}

/** An `invalid` {@link ServiceError}: the request itself is malformed (a missing field, a bad address...). */
export function createInvalidRequestError(code: string, message: string, entity: ErrorEntity): ServiceError {
  return createServiceError({ kind: "invalid", code, message, entity });
}

/** A `rejected` {@link ServiceError}: well formed, but a business rule refuses it (an expired quote, a used one...). */
export function createRejectedError(code: string, message: string, entity: ErrorEntity): ServiceError {
  return createServiceError({ kind: "rejected", code, message, entity });
}
