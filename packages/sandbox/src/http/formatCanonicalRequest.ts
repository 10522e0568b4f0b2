import { parseJsonLossless } from "../json/parseJsonLossless.js";
import { stringifyCanonicalJson } from "../json/stringifyCanonicalJson.js";

/**
 * Sort a raw query string by key (stable, so repeated keys keep their order) and re-encode each key and value
 * with `encodeURIComponent`, as the client signs it.
 */
function formatSignedQuery(rawQuery: string): string {
  if (rawQuery === "") return "";
  const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, " "));
  return rawQuery
    .split("&")
    .filter((part) => part !== "")
    .map((part) => {
      const eq = part.indexOf("=");
      return eq < 0 ? [decode(part), ""] : [decode(part.slice(0, eq)), decode(part.slice(eq + 1))];
    })
    .sort(([a], [b]) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k as string)}=${encodeURIComponent(v as string)}`)
    .join("&");
}

/**
 * The canonical string of design §2, `METHOD:PATH:QUERY:BODY`: the query sorted by key, the JSON body
 * re-serialized with sorted keys and no whitespace (numbers keep their source text), empty segments empty.
 * Throws a `JsonSyntaxError` for a body that is not JSON.
 */
export function formatCanonicalRequest({
  method,
  path,
  rawQuery,
  body,
}: {
  method: string;
  path: string;
  rawQuery: string;
  body: string;
}): string {
  const canonicalBody =
    body.trim() === "" ? "" : stringifyCanonicalJson({ value: parseJsonLossless({ text: body }) });
  return `${method.toUpperCase()}:${path}:${formatSignedQuery(rawQuery)}:${canonicalBody}`;
}
