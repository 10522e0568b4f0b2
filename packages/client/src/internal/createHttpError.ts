import { type ClientError, clientError, type HttpErrorDetails } from "../errors/codes.js";
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
 * Where each key of the service's error body goes in `details`: `message` after `error`, so it wins when both are
 * there; `code` may also be a number.
 */
const serverFields = [
  ["code", "serverCode"],
  ["type", "serverType"],
  ["error", "serverMessage"],
  ["message", "serverMessage"],
  ["entity", "entity"],
] as const;

/**
 * Turns a non-2xx response into a `SwapIntentError`. Reads the service's error body (design §2:
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
  try {
    // a body that is no object (a number, a string, `null`, an array) holds none of these keys
    const parsed = JSON.parse(body) as Record<string, unknown> | null;
    for (const [key, name] of serverFields) {
      const value = parsed?.[key];
      if (typeof value === "string") (details as Record<string, unknown>)[name] = clean(value);
      else if (key === "code" && typeof value === "number") details.serverCode = value;
    }
  } catch {
    // not JSON: keep the text below
  }
  if (details.serverMessage === undefined && body.trim() !== "") details.body = clean(body);
  if (retryAfterMs !== undefined) details.retryAfterMs = retryAfterMs;
  return clientError(code, details);
}
