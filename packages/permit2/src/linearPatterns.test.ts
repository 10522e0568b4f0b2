/**
 * Every regular expression the package writes runs in linear time, as a ReDoS checker proves by counting steps;
 * the one that does not reads only a field type, which is refused over 256 characters before it is reached
 * (`slowInput.test.ts` bounds that work).
 */
import { fileURLToPath } from "node:url";
import { describeLinearPatterns } from "../../testing/src/linearPatterns.js";
import { UNSAFE_TEXT } from "./internal/unsafeText.js";

describeLinearPatterns({
  directory: fileURLToPath(new URL(".", import.meta.url)),
  constructed: {
    "internal/unsafeText.ts": [
      UNSAFE_TEXT,
      new RegExp(`${UNSAFE_TEXT.source}|[\\u{10000}-\\u{10FFFF}]`, "gu"),
    ],
  },
  formerlySlow: [
    // a destination's bech32 form, on a wallet's recipient of 50 000 1s
    /^[a-z0-9]+1[a-z0-9]+$/,
    // array suffixes of a field type, unbounded (here and in ox's encodeType)
    /(\[[0-9]*\])+$/,
  ],
  boundedInput: {
    "getPermit2WitnessTypeString.ts /(\\[[0-9]*\\])+$/":
      "a field type over 256 characters is refused before it",
  },
});
