import { BaseError } from "../errors/baseError.js";
import type { ClientErrorCode } from "../errors/codes.js";

const codeByStatus: Record<number, ClientErrorCode> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  422: "UNPROCESSABLE",
  429: "RATE_LIMITED",
};

/**
 * Turns a non-2xx response into a `BaseError`. Reads the service's error body (design §2:
 * `{code, message, entity}`, tolerating `{code, type, message}`) into `details`.
 */
export function createHttpError({
  status,
  statusText,
  body,
  method,
  path,
  retryAfterMs,
}: {
  status: number;
  statusText: string;
  body: string;
  method: string;
  path: string;
  retryAfterMs: number | undefined;
}): BaseError {
  const code = codeByStatus[status] ?? (status >= 500 && status <= 599 ? "SERVER_ERROR" : "HTTP_ERROR");
  const details: Record<string, unknown> = { status, method, path };
  let serverMessage: string | undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      const record = parsed as Record<string, unknown>;
      if (typeof record.code === "number" || typeof record.code === "string")
        details.serverCode = record.code;
      if (typeof record.type === "string") details.serverType = record.type;
      if (typeof record.message === "string") serverMessage = record.message;
      else if (typeof record.error === "string") serverMessage = record.error;
      if (typeof record.entity === "string") details.entity = record.entity;
    }
  } catch {
    // not JSON: keep the text below
  }
  if (serverMessage !== undefined) details.serverMessage = serverMessage;
  else if (body.trim() !== "") details.body = body;
  if (retryAfterMs !== undefined) details.retryAfterMs = retryAfterMs;
  const reason = statusText ? `${status} ${statusText}` : String(status);
  const shortMessage = `${method} ${path} failed with HTTP ${reason}${serverMessage ? `: ${serverMessage}` : "."}`;
  return new BaseError(code, shortMessage, { details });
}
