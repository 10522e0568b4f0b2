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
 * character but `"` and `\`) are decoded first, so a secret spelled out in them, wholly or in part, is caught too. A secret inside a larger encoded value (base64 of
 * `user:key`) is not.
 */
export function scrubText(
  text: string,
  secrets: readonly string[],
  maxLength = Number.POSITIVE_INFINITY,
): string {
  let clean = text;
  const forms: string[] = [];
  for (const secret of secrets) {
    if (!secret) continue;
    const base64 = /^[ -~]+$/.test(secret) ? btoa(secret).replace(/=+$/, "") : secret;
    // each form goes through the same unescaping as the text, so a secret that itself holds `%41` still matches
    for (const form of [
      secret,
      encodeURIComponent(secret),
      JSON.stringify(secret).slice(1, -1),
      base64,
      base64.replace(/\+/g, "-").replace(/\//g, "_"),
    ])
      forms.push(unescapeNeedless(form).replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  }
  if (forms.length > 0) {
    // longest first, so a longer form is replaced whole
    const pattern = new RegExp(forms.sort((a, b) => b.length - a.length).join("|"), "gi");
    clean = unescapeNeedless(clean).replace(pattern, redacted);
  }
  return cutText(clean, maxLength);
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
