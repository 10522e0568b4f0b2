/**
 * Every regular expression the client writes runs in linear time, as a ReDoS checker proves by counting steps; the
 * two that do not only ever read a short text, named below with what bounds it.
 */
import { fileURLToPath } from "node:url";
import { describeLinearPatterns } from "../../testing/src/linearPatterns.js";

/** What scrubText builds for a credential: its forms as literal alternatives, and the run a token must hold. */
const secretForms = [
  "sk_live_Layer5Key0123456789",
  "c2tfbGl2ZV9MYXllcjVLZXkwMTIzNDU2Nzg5",
  "kT9%2Ba%2FZq0bX3y7",
];

describeLinearPatterns({
  directory: fileURLToPath(new URL(".", import.meta.url)),
  constructed: {
    "internal/scrubText.ts": [
      new RegExp(secretForms.join("|"), "i"),
      new RegExp(secretForms.join("|"), "gi"),
      ...["\\s!-~", "^"].map((room) => new RegExp(`[${room}]{8}`)),
      // a credential too short to carry a secret, only where it stands alone
      /(?<![\p{L}\p{N}_-])(?:k|%6B)(?![\p{L}\p{N}_-])/giu,
    ],
    // the PEM reader, for one of its three labels: they differ only in the literal text (each takes the checker
    // seconds: `\s` makes a large alphabet)
    "signing/createRequestSigner.ts": [
      /-----BEGIN PUBLIC KEY-----([A-Za-z0-9+/=\s]+)-----END PUBLIC KEY-----/,
    ],
  },
  formerlySlow: [
    // a base URL's trailing slashes, a header value's trailing whitespace, an amount's trailing zeros
    /\/+$/,
    /[\t\n\r ]+$/,
    /0+$/,
  ],
  boundedInput: {
    "internal/scrubText.ts /=+$/": "reads the base64 of the caller's own credential, never a server's text",
    "internal/wire.ts /T[^Z+-]*$/":
      "reads a date that already matched the ISO 8601 form (at most 35 characters)",
  },
});
