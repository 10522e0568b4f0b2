/**
 * A credential a server echoes under two or three layers of encoding (URL-encoded twice, JSON escapes inside
 * URL-encoding, base64 of its URL-encoded form, base64 of `user:key`, …) is scrubbed like a plain echo. Before, only
 * one layer was decoded, so each of these reached error text and hooks whole.
 */
import { describe, expect, it } from "vitest";
import { rejection, testClient } from "../../test/helpers.js";
import { startTestServer } from "../../test/startTestServer.js";
import { scrubText } from "./scrubText.js";

const apiKey = "sk_live_Layer5Key0123456789";
// a signature header value: base64 with `+`, `/` and `=`, which need escaping in a URL
const signature = "kT9+a/Zq0bX3y7+Wm1/Lp8vQ==";
const secrets = [apiKey, signature];

const url = (text: string) => encodeURIComponent(text);
const percentAll = (text: string) =>
  [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0").toUpperCase()}`).join("");
const unicodeAll = (text: string) =>
  [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
const base64 = (text: string) => btoa(text);
const base64url = (text: string) => btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const json = (text: string) => JSON.stringify(text).slice(1, -1);

/** Each form a server could plausibly write, for a secret. */
const layered: Array<[string, (secret: string) => string]> = [
  ["URL-encoded twice", (s) => url(url(s))],
  ["every character percent-encoded, then URL-encoded again (%2573…)", (s) => url(percentAll(s))],
  ["JSON \\u escapes inside URL-encoding (%5Cu0073…)", (s) => url(unicodeAll(s))],
  ["URL-encoding written with JSON \\u escapes (\\u0025…)", (s) => json(url(s)).replace(/%/g, "\\u0025")],
  ["JSON-escaped twice (\\\\u0073…)", (s) => json(unicodeAll(s))],
  ["base64 of its URL-encoded form", (s) => base64(url(s))],
  ["base64url of its URL-encoded form", (s) => base64url(url(s))],
  ["URL-encoded base64", (s) => url(base64(s))],
  ["base64 of `user:key` (Basic auth)", (s) => base64(`partner:${s}`)],
  ["base64 of a JSON object holding it", (s) => base64(JSON.stringify({ api_key: s, n: 1 }))],
  ["base64 of base64", (s) => base64(base64(s))],
  ["three layers: base64 of the URL-encoded, URL-encoded secret", (s) => base64(url(url(s)))],
  ["three layers: URL-encoded JSON \\u escapes of the URL-encoded secret", (s) => url(unicodeAll(url(s)))],
];

describe("scrubText: a secret under up to three layers of encoding", () => {
  for (const [name, encode] of layered) {
    for (const secret of secrets) {
      it(`${name}, of ${secret === apiKey ? "an API key" : "a base64 signature"}: redacted, text around kept`, () => {
        const echoed = encode(secret);
        const clean = scrubText(`{"message":"denied ${echoed} for partner","code":401}`, secrets);
        expect(clean).not.toContain(echoed);
        expect(clean).toContain("[redacted]");
        expect(clean).toMatch(/^\{"message":"denied .*for partner","code":401\}$/);
        for (const leak of [secret, url(secret), base64(secret).replace(/=+$/, "")])
          expect(clean.toLowerCase()).not.toContain(leak.toLowerCase());
      });
    }
  }

  it("text without a secret is kept as sent, its escapes and base64 included", () => {
    const text = `a %2520 \\u0022 %5Cu0041 ${base64("hello world, nothing here")} ${url(url("a/b c"))} plain`;
    expect(scrubText(text, secrets)).toBe(text);
  });

  it("a secret under four layers is past the bound, and the work stays linear: 8 MiB of encoded tokens in time", () => {
    const token = base64(url(url(percentAll("not a secret at all"))));
    const text = `${token} `.repeat(Math.ceil((8 * 1024 * 1024) / (token.length + 1)));
    const started = performance.now();
    expect(scrubText(text, secrets).length).toBe(text.length);
    expect(performance.now() - started).toBeLessThan(8000);
  });
});

describe("through the client: error text and hooks", () => {
  it("an error body and a response header echoing the key URL-encoded twice and as base64 of user:key", async () => {
    const server = await startTestServer();
    try {
      const key = "sk_live_Echo+Key/0123456789";
      const twice = url(url(key));
      const basic = base64(`partner:${key}`);
      server.handle(() => ({
        status: 401,
        headers: { "content-type": "text/plain", "x-debug": `auth=${twice}` },
        body: `rejected ${twice} / Basic ${basic}`,
      }));
      const events: unknown[] = [];
      const client = testClient(server, {
        apiKey: key,
        retry: false,
        hooks: { onResponse: (e) => events.push(e) },
      });
      const error = await rejection(client.getNetworks());
      expect(error.code).toBe("UNAUTHORIZED");
      const seen = `${JSON.stringify(error.details)} ${error.shortMessage} ${JSON.stringify(events)}`;
      for (const leak of [twice, basic, url(key), key]) expect(seen).not.toContain(leak);
      expect(seen).toContain("[redacted]");
    } finally {
      await server.close();
    }
  });
});

describe("scrubText on one huge token", () => {
  it("6 million base64 letters in one run (a bigint a server made absurd) are scrubbed without a stack overflow", () => {
    const huge = "9".repeat(6_000_000);
    const started = performance.now();
    expect(scrubText(`{"lots":"${huge}"}`, secrets)).toBe(`{"lots":"${huge}"}`);
    // a secret after a long aligned run is still found
    const hidden = `${"A".repeat(8192)}${base64(`user:${apiKey}`)}`;
    expect(scrubText(`x ${hidden} y`, secrets)).toBe("x [redacted] y");
    expect(performance.now() - started).toBeLessThan(8000);
  });
});
