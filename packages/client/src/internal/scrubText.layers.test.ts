/**
 * A credential a server echoes under two or three layers of encoding (URL-encoded twice, JSON escapes inside
 * URL-encoding, base64 of its URL-encoded form, base64 of `user:key`, …) is scrubbed like a plain echo. Before, only
 * one layer was decoded, so each of these reached error text and hooks whole.
 */
import { describe, expect, it } from "vitest";
import { countScans } from "../../test/countScans.js";
import { rejection, testClient } from "../../test/helpers.js";
import { startTestServer } from "../../test/startTestServer.js";
import { scrubText } from "./scrubText.js";

/** Characters handed to scanning primitives per character of input, at most (measured: 13 to 40). */
const maxScansPerCharacter = 64;

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

  it("a secret under four layers is past the bound, and the work stays linear: 4 times the text, 4 times the scans", () => {
    const token = base64(url(url(percentAll("not a secret at all"))));
    const text = (size: number) => `${token} `.repeat(Math.ceil(size / (token.length + 1)));
    const small = countScans(() => scrubText(text(128 * 1024), secrets));
    const large = countScans(() => scrubText(text(512 * 1024), secrets));
    expect(large.result).toBe(text(512 * 1024));
    expect(large.scanned).toBeLessThanOrEqual(maxScansPerCharacter * text(512 * 1024).length);
    expect(large.scanned / small.scanned).toBeLessThan(4.2);
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
    const run = countScans(() => scrubText(`{"lots":"${huge}"}`, secrets));
    expect(run.result).toBe(`{"lots":"${huge}"}`);
    expect(run.scanned).toBeLessThanOrEqual(maxScansPerCharacter * huge.length);
    // a secret after a long aligned run is still found
    const hidden = `${"A".repeat(8192)}${base64(`user:${apiKey}`)}`;
    expect(scrubText(`x ${hidden} y`, secrets)).toBe("x [redacted] y");
  });
});

describe("scrubText: base64 wherever its quads start, however its lines are broken", () => {
  /** Base64 of `prefix` filler bytes and then the secret (the secret at every byte offset as `prefix` varies). */
  const padded = (secret: string, prefix: number) => base64(`${"x".repeat(prefix)}${secret}`);
  const expectRedacted = (text: string, echoed: string) => {
    const clean = scrubText(`denied ${text} end`, secrets);
    expect(clean).toContain("[redacted]");
    expect(clean).not.toContain(echoed.slice(-12));
  };

  // a path or name glued to the base64 (`/`, `-` and `_` are base64 letters): before, the run was decoded from
  // its first letter, out of step with the quads, and showed nothing
  for (const glue of ["/a/", "/ab/", "/abc/", "/v1/echo/", "/api/v1/echo/", "x-", "id_", "-"])
    for (const secret of secrets)
      it(`glued after ${JSON.stringify(glue)}: base64 of user:key and of the URL-encoded secret`, () => {
        for (const echoed of [base64(`user:${secret}`), base64url(url(secret))])
          expectRedacted(`${glue}${echoed}`, echoed);
      });

  // before, a run was read in pieces of 4096 letters: a secret across a piece's end showed in neither
  it("a secret across every 4096-letter boundary of a long run", () => {
    for (let prefix = 3060; prefix < 3075; prefix++)
      expectRedacted(padded(apiKey, prefix), padded(apiKey, prefix));
    const twice = padded(base64(`user:${apiKey}`), 6140);
    expectRedacted(twice, twice);
  });

  // MIME (76, CRLF) and PEM (64, LF) line breaks, as sent or as JSON escapes: before, each line was a token of its
  // own (or the escape's letter broke the quads), so a secret across a line end showed in no line
  const breaks: Array<[string, (b64: string) => string]> = [
    ["MIME lines (CRLF)", (b) => b.replace(/(.{76})/g, "$1\r\n")],
    ["PEM lines (LF)", (b) => b.replace(/(.{64})/g, "$1\n")],
    ["JSON \\r\\n escapes", (b) => b.replace(/(.{76})/g, "$1\\r\\n")],
    ["JSON \\n escapes", (b) => b.replace(/(.{64})/g, "$1\\n")],
  ];
  for (const [name, wrap] of breaks)
    for (const secret of secrets)
      it(`base64 in ${name}, a line end at every position in the secret`, () => {
        for (let prefix = 20; prefix < 60; prefix++)
          expectRedacted(wrap(padded(secret, prefix)), padded(secret, prefix));
      });

  it("%u escapes (IIS, JavaScript's escape) are decoded like \\u", () => {
    for (const secret of secrets) {
      const echoed = [...secret].map((c) => `%u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
      expectRedacted(echoed, echoed);
      expectRedacted(url(echoed), url(echoed));
    }
  });

  it("a layer is skipped only when it cannot hold the shortest form: a Latin-1 secret and a short one still caught", () => {
    // a non-ASCII secret's forms are not ASCII, so no layer may be skipped for bytes past ASCII
    const latin1 = "cl\u00e9_secr\u00e8te_0123456789";
    const short = "k3y/9+Zq";
    for (const [secret, echoed] of [
      [latin1, base64(`user:${latin1}`)],
      [latin1, `/a/${base64(latin1)}`],
      [latin1, url(url(latin1))],
      [latin1, base64url(url(latin1))],
      [latin1, `/a/${base64(`u:${encodeURIComponent(latin1)}`)}`],
      [short, base64(`user:${short}`)],
      [short, `/a/${base64(url(short))}`],
    ] as const) {
      const clean = scrubText(`denied ${echoed} end`, [secret]);
      expect(clean).toBe("denied [redacted] end");
    }
  });

  // an HTML error page (Go's html/template writes `+` as `&#43;`; OWASP-style encoders `/` as `&#x2F;`): before,
  // a signature or base64 with those characters reached error text whole
  it("HTML numeric character references, decimal or hex, are decoded as a layer", () => {
    const decimal = (s: string) => s.replace(/[+/=:]/g, (c) => `&#${c.charCodeAt(0)};`);
    const hex = (s: string) =>
      s.replace(/[+/=:_]/g, (c) => `&#x${c.charCodeAt(0).toString(16).toUpperCase()};`);
    for (const secret of secrets)
      for (const echoed of [
        decimal(secret),
        hex(secret),
        decimal(base64(`user:${secret}`)),
        hex(url(secret)),
      ])
        expectRedacted(`<p>${echoed}</p>`, echoed);
  });

  it("text without a secret is kept: paths, long base64 and line-broken base64", () => {
    const text = `GET /api/v1/echo/${base64("hello there, nothing")} ${padded("nothing here", 5000)}\r\n${base64("x".repeat(300)).replace(/(.{76})/g, "$1\r\n")} %u0041`;
    expect(scrubText(text, secrets)).toBe(text);
  });
});

describe("scrubText work on text a hostile or broken server may send", () => {
  const fill = (unit: string) => (size: number) => unit.repeat(Math.ceil(size / unit.length));
  // before, a run whose length leaves 1 over a quad made atob throw, and a throw per token cost ~5 s on the first
  // two; each case now decodes a run from 4 places, so a misread must stay cheap. The speed on 8 MiB of each is
  // measured in the client's bench (`scrubText on 8 MiB`); here the work is bounded: every case reads its input a
  // bounded number of times (at most ~40 characters scanned per character of input), and 4 times the input costs
  // 4 times the scans, not 16
  const worst: Array<[string, (size: number) => string]> = [
    ["9-letter tokens (atob threw on each)", fill("abcdefghi ")],
    ["base64 lines as JSON \\n escapes in one token", fill("QUJDREVGR0hJSktMTU5P\\n")],
    ["base64 of base64 of base64", (size) => btoa(btoa(btoa("ABC\u00ff".repeat(Math.ceil(size / 14)))))],
    ["one run of letters", fill("a")],
    ["MIME lines (one token across CRLF)", fill(`${btoa("\u00fe\u00ff".repeat(28))}\r\n`)],
    ["%u escapes", fill("%u0041")],
    ["HTML character references", fill("&#x41;&#66;")],
    ["paths glued to base64", fill("/a/QUJDREVGR0hJSktMTU5PUVJTVFVWV1hZWg ")],
    ["tokens as long as the key", fill(`${"abcdefghijklmnopqrstuvwxyz".repeat(2).slice(0, apiKey.length)} `)],
  ];
  it.each(worst)("%s: nothing redacted, scans linear in the input", (_, make) => {
    const small = make(128 * 1024);
    const large = make(512 * 1024);
    const smallRun = countScans(() => scrubText(small, secrets));
    const largeRun = countScans(() => scrubText(large, secrets));
    expect(largeRun.result).toBe(large);
    expect(largeRun.scanned).toBeLessThanOrEqual(maxScansPerCharacter * large.length);
    expect(largeRun.scanned / smallRun.scanned).toBeLessThan(4.2);
  });
});
