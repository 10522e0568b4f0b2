// The checks `createBaseClient` runs on its options before it makes a transport: where the key may be sent, and how
// the client authenticates. Each failure is `INVALID_OPTIONS`, never quoting the value (it may be a key).
import type { ClientOptions } from "../client/types.js";
import { invalidInput } from "./invalidInput.js";

/** The `INVALID_OPTIONS` error for one client option; never quotes the value (it may be a key). */
export const invalidOption = (field: string, reason: string) =>
  invalidInput(field, reason, undefined, "INVALID_OPTIONS");

/**
 * `baseUrl` as the URL parser writes it (spaces around it dropped, as they would be mid-URL otherwise), or
 * `INVALID_OPTIONS`. Plain `http:` only to a loopback host (the parser has already written `127.1`, `0x7f.1` or
 * `2130706433` as `127.0.0.1`, `[0:0:0:0:0:0:0:1]` as `[::1]`, and lower-cased the name) or with
 * `allowInsecureHttp`: the key or signature would cross the network in clear text.
 */
export function assertBaseUrl({ baseUrl, allowInsecureHttp }: ClientOptions): URL {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    // not kept as `cause`: the URL error quotes the text, a password in it too
  }
  // a user name or password: fetch refuses such a URL with an error that quotes it, password included;
  // a `?` or `#` (even empty): every path appended would land in the query or fragment, every call on "/"
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || /[?#]/.test(url.href))
    throw invalidOption("baseUrl", "must be an http(s) URL without credentials, query or fragment");
  // after the parser, any loopback IPv4 reads `127.x.x.x` (a host of digits and dots parses only as an IPv4
  // address) and `[::1]` is the only IPv6 loopback; IPv4-mapped `[::ffff:7f00:1]` is refused (fails closed: it
  // reaches loopback only through a dual-stack socket). Of names only `localhost` itself: Node's resolver asks
  // DNS for `localhost.` and `*.localhost` (not in the hosts file), so the network would pick where the key goes
  if (
    allowInsecureHttp !== true &&
    url.protocol === "http:" &&
    !/^(127\.[\d.]+|\[::1\]|localhost)$/.test(url.hostname)
  )
    throw invalidOption("baseUrl", "must be https, or loopback, or set `allowInsecureHttp: true`");
  // the client appends `/affiliate/v1/…` itself: a base holding it would double it (every call a 404)
  const api = url.pathname.search(/\/affiliate\/v1(\/|$)/i);
  if (api >= 0)
    throw invalidOption(
      "baseUrl",
      `must not hold /affiliate/v1 (the client adds it): use ${url.origin}${url.pathname.slice(0, api)}`,
    );
  return url;
}

/** Exactly one way to authenticate: `apiKey`, `requestSigning`, or an explicit `auth: "none"`. */
export function assertCredentials({ apiKey, requestSigning, auth }: ClientOptions): void {
  // never the value: it may be a key
  const fail = (field: string, reason: string) => {
    throw invalidOption(field, reason);
  };
  const given = [apiKey, requestSigning, auth].filter((credential) => credential !== undefined).length;
  if (auth !== undefined && auth !== "none") fail("auth", 'can only be "none"');
  if (given > 1) fail(auth === undefined ? "apiKey" : "auth", "cannot be combined with another credential");
  if (requestSigning !== undefined && typeof requestSigning !== "function")
    fail("requestSigning", "must be a signer");
  if (apiKey !== undefined && (typeof apiKey !== "string" || apiKey === ""))
    fail("apiKey", "must be a non-empty string");
  if (given === 0) fail("apiKey", 'is missing (or give `requestSigning` or `auth: "none"`)');
}
