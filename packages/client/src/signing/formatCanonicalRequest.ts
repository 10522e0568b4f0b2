import type { ClientError } from "../errors/codes.js";
import { formatQueryString, type QueryParameters } from "./formatQueryString.js";
import { stringifyCanonicalJson } from "./stringifyCanonicalJson.js";

/** Parameters of {@link formatCanonicalRequest}. */
export interface FormatCanonicalRequestParameters {
  method: string;
  path: string;
  query?: QueryParameters | undefined;
  /** A JSON value (serialized canonically) or already canonical body text (used as is). */
  body?: unknown | undefined;
}

/** What {@link formatCanonicalRequest} returns. */
export type FormatCanonicalRequestReturnType = string;

/** The errors {@link formatCanonicalRequest} can throw. */
export type FormatCanonicalRequestErrorType = ClientError<"INVALID_INPUT">;

/**
 * The exact string that request signing signs (design §2): `METHOD:PATH:QUERY:BODY`.
 *
 * - `METHOD`: upper case, `GET` or `POST`.
 * - `PATH`: the URL path as sent, starting with `/`, without the query (for example `/affiliate/v1/intents`;
 *   if the base URL has a path prefix, the prefix is part of it).
 * - `QUERY`: the query string without `?`, parameters sorted by key, see {@link formatQueryString}; `""` when none.
 * - `BODY`: the JSON body with keys sorted at every depth and no whitespace, see {@link stringifyCanonicalJson};
 *   `""` for a request without a body. It is byte for byte the body the client sends.
 *
 * Segments are joined with `:` even when empty, so a GET without query is `GET:/affiliate/v1/networks::`.
 *
 * @example
 * formatCanonicalRequest({ method: "GET", path: "/affiliate/v1/tokens", query: [["q", "usdc"], ["limit", "5"]] })
 * // "GET:/affiliate/v1/tokens:limit=5&q=usdc:"
 */
export function formatCanonicalRequest({
  method,
  path,
  query,
  body,
}: FormatCanonicalRequestParameters): FormatCanonicalRequestReturnType {
  const bodyText =
    body === undefined ? "" : typeof body === "string" ? body : stringifyCanonicalJson({ value: body });
  return `${method.toUpperCase()}:${path}:${formatQueryString({ query })}:${bodyText}`;
}
