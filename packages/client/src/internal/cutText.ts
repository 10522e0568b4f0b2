/**
 * `text` as is when it is at most `max` characters long; otherwise its first `max` characters (one fewer when the
 * last would be the first half of a surrogate pair: a lone surrogate is not text, and renders as a replacement
 * mark) followed by `… (N chars)`, N the full length.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}… (${text.length} chars)`;
}
