/**
 * The characters no swapintent package may display from a service string, as the body of a regular-expression
 * character class (compile with the `u` flag): C0/C1 controls (line breaks included), format characters (bidi
 * overrides and isolates, zero-width spaces and joiners, the byte-order mark, soft hyphen, tags), the Unicode line
 * and paragraph separators, every default-ignorable code point (Hangul fillers, the combining grapheme joiner,
 * variation selectors, Mongolian free variation selectors: letters and marks that render as nothing) and the blank
 * braille pattern U+2800. Any of them can make a displayed text read as something else, or hide a difference
 * between two look-alikes. A package may add characters to the class; it never drops any.
 *
 * @example
 * const unsafe = new RegExp(`[${UNSAFE_DISPLAY_CHARACTERS}]`, "u");
 * unsafe.test("btc\u{FE0F}"); // true: a variation selector
 */
export const UNSAFE_DISPLAY_CHARACTERS =
  "\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\p{Default_Ignorable_Code_Point}\\u2800";

/**
 * Every default-ignorable code point (Unicode's `Default_Ignorable_Code_Point` property), as inclusive
 * `[first, last]` ranges in code point order. Written out so that each package's tests can sample every range
 * against its own display check; `\p{Default_Ignorable_Code_Point}` in {@link UNSAFE_DISPLAY_CHARACTERS} is the
 * definition a check uses.
 *
 * @example
 * for (const [first, last] of DEFAULT_IGNORABLE_RANGES) console.log(first.toString(16), last.toString(16));
 */
export const DEFAULT_IGNORABLE_RANGES: readonly (readonly [number, number])[] = Object.freeze(
  (
    [
      [0x00ad, 0x00ad], // soft hyphen
      [0x034f, 0x034f], // combining grapheme joiner
      [0x061c, 0x061c], // arabic letter mark
      [0x115f, 0x1160], // Hangul choseong and jungseong fillers
      [0x17b4, 0x17b5], // Khmer inherent vowels
      [0x180b, 0x180f], // Mongolian free variation selectors and vowel separator
      [0x200b, 0x200f], // zero-width space, joiners, direction marks
      [0x202a, 0x202e], // bidi embeddings and overrides
      [0x2060, 0x206f], // word joiner, invisible operators, bidi isolates, deprecated format characters
      [0x3164, 0x3164], // Hangul filler
      [0xfe00, 0xfe0f], // variation selectors 1-16
      [0xfeff, 0xfeff], // byte-order mark
      [0xffa0, 0xffa0], // halfwidth Hangul filler
      [0xfff0, 0xfff8], // unassigned specials
      [0x1bca0, 0x1bca3], // shorthand format controls
      [0x1d173, 0x1d17a], // musical symbol format controls
      [0xe0000, 0xe0fff], // tag characters, variation selectors 17-256, and the rest of the block
    ] as const
  ).map((range) => Object.freeze(range)),
);
