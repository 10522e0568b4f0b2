import type { ClientError } from "../errors/codes.js";
import { invalidInput } from "../internal/invalidInput.js";

/** Query parameters in request order; a key may repeat (`wallet=a&wallet=b`). */
export type QueryParameters = ReadonlyArray<readonly [key: string, value: string]>;

/** Parameters of {@link formatQueryString}. */
export interface FormatQueryStringParameters {
  query?: QueryParameters | undefined;
}

/** What {@link formatQueryString} returns. */
export type FormatQueryStringReturnType = string;

/** The errors {@link formatQueryString} can throw. */
export type FormatQueryStringErrorType = ClientError<"INVALID_INPUT">;

/**
 * Encodes query parameters as the client sends them and signs them: sorted by key (a stable sort, so repeated
 * keys keep their order), each key and value percent-encoded with `encodeURIComponent`, joined with `&`.
 * An empty list gives `""`.
 *
 * @throws `INVALID_INPUT` naming the key of a key or value that holds a lone surrogate (it has no UTF-8 form).
 *
 * @example formatQueryString({ query: [["offset", "0"], ["limit", "20"], ["q", "usd coin"]] }) // "limit=20&offset=0&q=usd%20coin"
 */
export function formatQueryString({ query }: FormatQueryStringParameters): FormatQueryStringReturnType {
  return [...(query ?? [])]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => {
      try {
        return `${encodeURIComponent(key)}=${encodeURIComponent(value)}`;
      } catch {
        // a lone surrogate (a text cut inside an emoji) has no UTF-8 form: encodeURIComponent throws a URIError
        throw invalidInput(key, "has a lone surrogate");
      }
    })
    .join("&");
}
