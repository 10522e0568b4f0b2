import { cutText } from "./cutText.js";

/** Longest server text (a message, a raw body) an error keeps; the rest is cut and its length noted. */
export const maxServerTextLength = 1000;

/** What a credential becomes in text the client hands out (errors, hook events). */
export const redacted = "[redacted]";

/**
 * Replaces every secret the client holds (API key, signature, credential header values) in server text, then
 * cuts the result to `maxLength`. Scrubbing runs on the whole text first, so a cut can never leave part of a
 * secret behind.
 *
 * The forms a server may echo a secret in are all caught: as is, URL-encoded, JSON-escaped, base64 and base64url,
 * in any letter case (a header name arrives lower-cased; percent escapes may be lower case). Escapes a server
 * need not have written (`\u0073` for `s`, `%5F` for `_`, and in JSON `\/` or `\u002B` for any printable
 * character but `"` and `\`) are decoded first, so a secret spelled out in them, wholly or in part, is caught too.
 *
 * A secret under further layers (URL-encoded twice, JSON escapes inside URL-encoding, base64 of its URL-encoded
 * form, base64 of `user:key` or of a JSON object holding it, in any order) is caught up to 3 layers deep: each
 * token (a run without spaces, quotes or angle brackets) is decoded a layer at a time, and a token that then shows
 * a secret is redacted whole. A 4th layer is past the bound (and past what a server writes by accident).
 */
export function scrubText(
  text: string,
  secrets: readonly string[],
  maxLength = Number.POSITIVE_INFINITY,
): string {
  let clean = text;
  const forms: string[] = [];
  // no layer is longer than what it was decoded from: a token shorter than every form cannot hide one
  let shortest = Number.POSITIVE_INFINITY;
  // every form of an ASCII secret, and every encoding decoded here, is ASCII: a layer without a long enough run
  // of it cannot hide one (a misread of base64 is mostly bytes past ASCII); any character for another secret
  let room = "\\s!-~";
  // a credential too short to carry a secret (a sandbox key such as `k`): only where it stands as a value of its
  // own (no letter, digit, `_` or `-` beside it), as sent, URL-encoded or JSON-escaped; never inside a word, where
  // it would garble the server's text
  const short: string[] = [];
  for (const secret of secrets) {
    if (!secret) continue;
    if (secret.length < minSecretLength) {
      for (const form of [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])
        short.push(escapeRegExp(unescapeNeedless(form)));
      continue;
    }
    const ascii = /^[ -~]+$/.test(secret);
    if (!ascii) room = "^";
    const base64 = ascii ? btoa(secret).replace(/=+$/, "") : secret;
    // each form goes through the same unescaping as the text, so a secret that itself holds `%41` still matches
    for (const form of [
      secret,
      encodeURIComponent(secret),
      JSON.stringify(secret).slice(1, -1),
      base64,
      base64.replace(/\+/g, "-").replace(/\//g, "_"),
    ]) {
      const plain = unescapeNeedless(form);
      shortest = Math.min(shortest, plain.length);
      forms.push(escapeRegExp(plain));
    }
  }
  if (forms.length + short.length > 0) clean = unescapeNeedless(clean);
  if (forms.length > 0) {
    // longest first, so a longer form is replaced whole
    const source = forms.sort(byLength).join("|");
    const found = new RegExp(source, "i");
    const roomy = new RegExp(`[${room}]{${shortest}}`);
    // a token still hiding a secret under up to `layers` more encodings is redacted whole
    const hides = (token: string, layers: number): boolean =>
      roomy.test(token) &&
      (found.test(token) || (layers > 0 && decodeLayer(token).some((layer) => hides(layer, layers - 1))));
    clean = clean
      .replace(new RegExp(source, "gi"), redacted)
      .replace(/[^\s"'<>]+(?:\r?\n[^\s"'<>]+)*/g, (token) =>
        /[%\\&]|[\w+/-]{8}/.test(token) && hides(token, 3) ? redacted : token,
      );
  }
  if (short.length > 0)
    clean = clean.replace(
      new RegExp(`(?<![\\p{L}\\p{N}_-])(?:${short.sort(byLength).join("|")})(?![\\p{L}\\p{N}_-])`, "giu"),
      redacted,
    );
  return cutText(clean, maxLength);
}

/** Shorter than this, a credential carries no secret worth cutting words for (see `scrubText`). */
const minSecretLength = 8;

const byLength = (a: string, b: string) => b.length - a.length;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * One more layer of what a token may be: its `%XX`, `%uXXXX`, `\uXXXX`, `\x` escapes and HTML's `&#43;` and
 * `&#x2F;` decoded (when it has any), and each base64 or base64url run of 8 characters or more in it decoded
 * (invalid base64 is skipped) from each of the 4 places its quads may start, as a path or name may be glued before
 * it (`/echo/…`: `/` is a base64 letter), with line breaks (and JSON's `\n`, `\r`, `\t`) dropped first: MIME and
 * PEM break base64 into lines.
 * Each layer is no longer than the token, and a token gets at most 3, so the work stays linear in the text.
 */
function decodeLayer(token: string): string[] {
  const unescaped = token.replace(
    /[%\\]u([\da-f]{4})|%([\da-f]{2})|&#(x[\da-f]{1,4}|\d{1,5});|\\(.)/gi,
    (_, unit?: string, byte?: string, entity?: string, char?: string) =>
      char ?? String.fromCharCode(entity ? +`0${entity}` : Number.parseInt((unit ?? byte) as string, 16)),
  );
  const layers = unescaped === token ? [] : [unescaped];
  // a lookahead, not `{8,}`: V8 overflows its stack on that repeat over a run of millions
  for (const run of token
    .replace(/\s|\\[nrt]/g, "")
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .match(/(?=[\w+/]{8})[\w+/]+/g) ?? [])
    for (let start = 0; start < 4; start++)
      try {
        layers.push(atob(run.slice(start, (run.length - start) % 4 === 1 ? -1 : undefined)));
      } catch {
        // not base64
      }
  return layers;
}

/**
 * Escapes that change nothing, as the character itself: in JSON, `\/` and `\u00XX` of any printable ASCII
 * character but `"` and `\` (PHP writes `/` as `\/`, .NET `+` as `\u002B`, HTML-safe encoders `<` as `\u003C`:
 * the JSON means the same); in a URL, `%XX` of a letter, digit or `-._~` (which never need escaping).
 */
function unescapeNeedless(text: string): string {
  return text.replace(/(\\u00|%)([2-7][0-9a-f])|\\\//gi, (sequence, kind?: string, hex?: string) => {
    const char = hex ? String.fromCharCode(+`0x${hex}`) : "/";
    return (kind === "%" ? /[\w.~-]/ : /[^"\\]/).test(char) ? char : sequence;
  });
}
