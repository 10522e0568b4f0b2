/**
 * A credential echoed with only some of its characters escaped (a PHP service writes `/` as `\/`, others escape
 * `+` or `=`) is redacted in the error body and the `onResponse` hook, for API keys and signatures alike.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejection } from "../../test/helpers.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";
import { createSwapIntentClient } from "./createSwapIntentClient.js";

const apiKey = "sk_live_Hostile3Key7";
const baseUrl = "https://swap.example";
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** A client on a custom `fetch` (what a wallet passes: a polyfill, a proxy wrapper, a test double). */
function withFetch(fetchFn: (url: string, init: RequestInit) => unknown, extra = {}) {
  return createSwapIntentClient({ baseUrl, apiKey, retry: false, fetch: fetchFn as typeof fetch, ...extra });
}

/** The timers Node holds right now. */
const _timers = () => process.getActiveResourcesInfo().filter((name) => name === "Timeout").length;

describe("a credential echoed with only some of its characters escaped", () => {
  /** A key with characters JSON encoders and URL encoders write in more than one way. */
  const slashKey = 'sk_live_7Gq/x+Y=z"9\\k???';
  const json = JSON.stringify(slashKey).slice(1, -1);
  const echoes: Array<[string, string]> = [
    ["PHP's json_encode (slash as \\/)", json.replace(/\//g, "\\/")],
    [
      "\\u escapes of the slash, plus and equals only",
      json.replace(/[/+=]/g, (c) => `\\u00${c.charCodeAt(0).toString(16).toUpperCase()}`),
    ],
    [
      "the base64 form with its own slash escaped",
      Buffer.from(slashKey).toString("base64").replace(/=+$/, "").replace(/\//g, "\\/"),
    ],
  ];
  for (const [name, echo] of echoes) {
    it(`${name}: redacted in the error body and the onResponse hook`, async () => {
      const bodies: string[] = [];
      const client = withFetch(async () => new Response(`{"detail":"${echo}"}`, { status: 400 }), {
        apiKey: slashKey,
        hooks: { onResponse: (event: { body: string }) => bodies.push(event.body) },
      });
      const error = await rejection(client.getNetworks());
      expect(error.details.body).toBe('{"detail":"[redacted]"}');
      expect(bodies).toEqual(['{"detail":"[redacted]"}']);
    });
  }

  it("a signing client: the signature and key id echoed by a PHP service (slashes as \\/) are redacted", async () => {
    let sent: Headers | undefined;
    const client = withFetch(
      async (_url: string, init: RequestInit) => {
        sent = new Headers(init.headers);
        const echo = `${sent.get("x-api-signature")} ${sent.get("x-api-key")}`.replace(/\//g, "\\/");
        return new Response(`{"detail":"${echo}"}`, { status: 401 });
      },
      {
        apiKey: undefined,
        requestSigning: async () => ({ "x-api-key": "kid/+==", "x-api-signature": "c2ln/bmF0/dXJl+/w==" }),
      },
    );
    const error = await rejection(client.getNetworks());
    expect(error.details.body).toBe('{"detail":"[redacted] [redacted]"}');
  });
});
