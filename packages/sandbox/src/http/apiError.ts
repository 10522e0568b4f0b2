import {
  createServiceError,
  type ErrorEntity,
  type ServiceError,
  type ServiceErrorKind,
} from "../service/serviceError.js";

export { createIntentNotFoundError, type ErrorEntity } from "../service/serviceError.js";

/** HTTP statuses the service answers errors with. */
export type ErrorStatus = 400 | 401 | 404 | 422 | 429 | 500 | 503;

/** The HTTP status of each kind of service error (design §2's error rules). */
export const STATUS_OF_KIND: Readonly<Record<ServiceErrorKind, ErrorStatus>> = {
  invalid: 400,
  unauthenticated: 401,
  not_found: 404,
  rejected: 422,
  rate_limited: 429,
  unavailable: 503,
};

const KIND_OF_STATUS = new Map(
  Object.entries(STATUS_OF_KIND).map(([kind, status]) => [status, kind as ServiceErrorKind]),
);

/**
 * The HTTP status a {@link ServiceError} is answered with (its body is `{code, message, entity, type}`): the domain
 * says what kind of refusal it is, the edge decides the status ({@link STATUS_OF_KIND}).
 */
export function getErrorStatus(error: ServiceError): ErrorStatus {
  return STATUS_OF_KIND[error.kind];
}

/**
 * Create a service error from the HTTP layer, by the status it is to be answered with (the edge's own refusals:
 * malformed requests, credentials, rate limits).
 *
 * @example createApiError({ status: 401, code: "UNAUTHORIZED", message: "No valid API key.", entity: "Other" })
 */
export function createApiError({
  status,
  code,
  message,
  entity,
  retryAfterSecs,
  cause,
}: {
  status: Exclude<ErrorStatus, 500>;
  code: string;
  message: string;
  entity: ErrorEntity;
  retryAfterSecs?: number;
  cause?: unknown;
}): ServiceError {
  const kind = KIND_OF_STATUS.get(status)!;
  return createServiceError({ kind, code, message, entity, retryAfterSecs, cause });
}

/** A 400 error: the request itself is malformed (a missing field, a bad id, an unknown token...). */
export function createBadRequestError(code: string, message: string, entity: ErrorEntity): ServiceError {
  return createApiError({ status: 400, code, message, entity });
}

/** A 422 error: the request is well formed but breaks a business rule (an expired quote, a used one...). */
export function createUnprocessableError(code: string, message: string, entity: ErrorEntity): ServiceError {
  return createApiError({ status: 422, code, message, entity });
}
