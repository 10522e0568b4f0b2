/** Every regular expression the package writes runs in linear time, as a ReDoS checker proves by counting steps. */
import { fileURLToPath } from "node:url";
import { UNSAFE_DISPLAY_CHARACTERS } from "@swapintent/client/internal";
import { describeLinearPatterns } from "../../testing/src/linearPatterns.js";

describeLinearPatterns({
  directory: fileURLToPath(new URL(".", import.meta.url)),
  constructed: {
    // the class of characters error details escape, to test and to replace
    "internal/text.ts": [
      new RegExp(`[${UNSAFE_DISPLAY_CHARACTERS}]`, "u"),
      new RegExp(`[${UNSAFE_DISPLAY_CHARACTERS}]`, "gu"),
    ],
  },
});
