import { JsonNumber } from "../../json/parseJsonLossless.js";

/**
 * The exact source text of a number of a losslessly parsed body (`readJsonBody`), or undefined for any other value.
 * The only place the wire schemas learn how the lossless reader represents numbers: an amount stays its decimal text
 * and never passes through a JS float.
 *
 * @example readNumberText(parseJsonLossless({ text: "0.1" })) // "0.1"
 */
export function readNumberText(value: unknown): string | undefined {
  return value instanceof JsonNumber ? value.text : undefined;
}
