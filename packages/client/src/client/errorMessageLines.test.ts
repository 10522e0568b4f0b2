/**
 * Server text cannot forge or hide a line in an error's message (control, bidi and separator characters are escaped
 * wherever the server's text lands), and prototype keys in an error body reach neither the error nor Object.prototype.
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

describe("server text cannot forge or hide a line in an error's message", () => {
  /** Newline, CR, ESC (ANSI), NUL, DEL, C1 CSI, line and paragraph separators, bidi override, zero-width, BOM. */
  const forging = [
    "\n",
    "\r",
    "\u001b[2K",
    "\u0000",
    "\u007f",
    "\u009b",
    "\u2028",
    "\u2029",
    "\u202e",
    "\u200b",
    "\ufeff",
  ];
  const unsafe = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
  const forged = (char: string) => `denied${char}[INFO] payment confirmed`;
  /** The message is the first line plus one line per detail, and neither it nor shortMessage holds such a character. */
  function expectOneLinePerDetail(error: { shortMessage: string; details: Record<string, unknown> }) {
    const { message } = error as unknown as Error;
    expect(message.split("\n")).toHaveLength(1 + Object.keys(error.details).length);
    expect(message.replace(/\n/g, "")).not.toMatch(unsafe);
    expect(error.shortMessage).not.toMatch(unsafe);
  }

  for (const char of forging) {
    const name = `U+${char.codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0")}`;
    it(`${name} in an error body's message, entity and code, or a plain-text error body`, async () => {
      for (const body of [
        { code: forged(char), message: forged(char), entity: forged(char) },
        forged(char),
      ]) {
        const error = await rejection(
          withFetch(
            async () => new Response(typeof body === "string" ? body : JSON.stringify(body), { status: 400 }),
          ).getNetworks(),
        );
        expect(error.code).toBe("BAD_REQUEST");
        expectOneLinePerDetail(error);
        expect((error as unknown as Error).message).toContain("[INFO] payment confirmed");
      }
    });

    it(`${name} in a 2xx body that is not JSON, or in a field name the schema quotes`, async () => {
      const bodies = [forged(char), JSON.stringify({ [forged(char)]: 1, data: [] })];
      for (const body of bodies) {
        const error = await rejection(withFetch(async () => new Response(body)).getTokens());
        expect(error.code).toBe("RESPONSE_INVALID");
        expectOneLinePerDetail(error);
      }
    });

    it(`${name} in a status text a custom fetch passes on`, async () => {
      const response = {
        status: 503,
        ok: false,
        statusText: forged(char),
        headers: new Headers(),
        body: null,
        text: async () => "",
      };
      const error = await rejection(withFetch(async () => response).getNetworks());
      expect(error.code).toBe("SERVER_ERROR");
      expectOneLinePerDetail(error);
    });
  }
});

describe("prototype keys in an error body", () => {
  it("__proto__ and constructor keys in an error body reach neither the error's details nor Object.prototype", async () => {
    const body =
      '{"__proto__":{"polluted":1,"serverMessage":"forged"},"constructor":{"prototype":{"polluted":2}},"code":400,"message":"m"}';
    const error = await rejection(withFetch(async () => new Response(body, { status: 400 })).getNetworks());
    expect(error.details).toEqual({
      status: 400,
      method: "GET",
      path: "/affiliate/v1/networks",
      serverCode: 400,
      serverMessage: "m",
    });
    expect(Object.getPrototypeOf(error.details)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
