/** Longest server text (a message, a raw body) an error keeps; the rest is cut and its length noted. */
export const maxServerTextLength = 1000;

const redacted = "[redacted]";

/**
 * Replaces every secret the client holds (API key, signature, credential header values) in server text,
 * in the forms a server may echo it (as is, URL-encoded, JSON-escaped), then cuts the result to `maxLength`.
 * Scrubbing runs on the whole text first, so a cut can never leave part of a secret behind.
 */
export function scrubText(
  text: string,
  secrets: readonly string[],
  maxLength = Number.POSITIVE_INFINITY,
): string {
  let clean = text;
  for (const secret of secrets) {
    if (secret === "") continue;
    for (const form of new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])) {
      if (clean.includes(form)) clean = clean.split(form).join(redacted);
    }
  }
  return clean.length > maxLength ? `${clean.slice(0, maxLength)}… (${clean.length} chars)` : clean;
}
