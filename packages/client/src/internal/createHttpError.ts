import { type ClientError, createClientError, type HttpErrorDetails } from "../errors/codes.js";
import { parseRetryAfter } from "./parseRetryAfter.js";
import { maxServerTextLength, scrubText } from "./scrubText.js";

/** The codes of an HTTP error status. */
export type HttpErrorCode =
  | "HTTP_ERROR"
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "UNPROCESSABLE"
  | "RATE_LIMITED"
  | "SERVER_ERROR";

const codeByStatus: Record<number, HttpErrorCode> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  422: "UNPROCESSABLE",
  429: "RATE_LIMITED",
};

/**
 * Turns a non-2xx response into a `BaseError`. Reads the service's error body (design §2:
 * `{code, message, entity}`, tolerating `{code, type, message}`) into `details`. Every server string is
 * scrubbed of `secrets` and cut to `maxServerTextLength`, in `details` and in the message alike.
 */
export function createHttpError(
  { status, headers }: Response,
  body: string,
  { method, path }: { method: string; path: string },
  secrets: readonly string[],
): ClientError<HttpErrorCode> {
  const retryAfterMs = parseRetryAfter(headers.get("retry-after"));
  const clean = (text: string) => scrubText(text, secrets, maxServerTextLength);
  const code = codeByStatus[status] ?? (status >= 500 && status <= 599 ? "SERVER_ERROR" : "HTTP_ERROR");
  const details: HttpErrorDetails = { status, method, path };
  let serverMessage: string | undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      const record = parsed as Record<string, unknown>;
      if (typeof record.code === "number" || typeof record.code === "string")
        details.serverCode = typeof record.code === "string" ? clean(record.code) : record.code;
      if (typeof record.type === "string") details.serverType = clean(record.type);
      if (typeof record.message === "string") serverMessage = clean(record.message);
      else if (typeof record.error === "string") serverMessage = clean(record.error);
      if (typeof record.entity === "string") details.entity = clean(record.entity);
    }
  } catch {
    // not JSON: keep the text below
  }
  if (serverMessage !== undefined) details.serverMessage = serverMessage;
  else if (body.trim() !== "") details.body = clean(body);
  if (retryAfterMs !== undefined) details.retryAfterMs = retryAfterMs;
  return createClientError(code, details);
}
