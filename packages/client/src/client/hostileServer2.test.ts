/**
 * A hostile server and a careless caller, third round (session 7): what still got through the reshaped transport.
 * Each describe names one class of finding; the probes that held stay as tests, so a regression shows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intentId, networksWire, permit2IntentWire, quoteId, statusWire } from "../../test/fixtures.js";
import { rejection } from "../../test/helpers.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";
import { createClient } from "./createClient.js";

const apiKey = "sk_live_Hostile3Key7";
const baseUrl = "https://swap.example";
const intentParams = {
  quote: quoteId,
  refundAddress: "0xrefund",
  userSourceAddress: "0xsource",
  userDestinationAddress: "0xdest",
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** A client on a custom `fetch` (what a wallet passes: a polyfill, a proxy wrapper, a test double). */
function withFetch(fetchFn: (url: string, init: RequestInit) => unknown, extra = {}) {
  return createClient({ baseUrl, apiKey, retry: false, fetch: fetchFn as typeof fetch, ...extra });
}

/** The call's outcome, or `"still pending"` when it has not settled within `ms`. */
async function settleWithin(promise: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise((resolve) => {
    timer = setTimeout(() => resolve("still pending"), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        (value) => ({ value }),
        (error) => error.code,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The timers Node holds right now. */
const timers = () => process.getActiveResourcesInfo().filter((name) => name === "Timeout").length;

describe("a fetch or body that ignores the abort signal still ends the attempt on time", () => {
  const never = () => new Promise(() => {});
  /** A body that sends `[` and then nothing, ignoring the signal; records whether it was cancelled. */
  function endlessBody() {
    const state = { cancelled: false };
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode("[")),
      cancel: () => {
        state.cancelled = true;
      },
    });
    return { state, response: new Response(body, { status: 200 }) };
  }

  it("a fetch that never settles: TIMEOUT at timeoutMs, ABORTED when the caller aborts", async () => {
    expect(await settleWithin(withFetch(never, { timeoutMs: 50 }).getNetworks(), 1000)).toBe("TIMEOUT");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect(await settleWithin(withFetch(never).getNetworks({ signal: controller.signal }), 1000)).toBe(
      "ABORTED",
    );
  });

  it("a fetch that resolves after the deadline: TIMEOUT, its late answer is not used", async () => {
    const late = () =>
      new Promise((resolve) => setTimeout(() => resolve(new Response(JSON.stringify(networksWire))), 300));
    expect(await settleWithin(withFetch(late, { timeoutMs: 50 }).getNetworks(), 1000)).toBe("TIMEOUT");
  });

  it("a body that never ends and ignores the signal: TIMEOUT or ABORTED, and the body is cancelled", async () => {
    const timedOut = endlessBody();
    const call = withFetch(async () => timedOut.response, { timeoutMs: 50 }).getNetworks();
    expect(await settleWithin(call, 1000)).toBe("TIMEOUT");
    expect(timedOut.state.cancelled).toBe(true);
    const aborted = endlessBody();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const abortedCall = withFetch(async () => aborted.response).getNetworks({ signal: controller.signal });
    expect(await settleWithin(abortedCall, 1000)).toBe("ABORTED");
    expect(aborted.state.cancelled).toBe(true);
  });

  it("an oversized body whose cancel never settles: RESPONSE_TOO_LARGE at once, not a hang", async () => {
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new Uint8Array(64)),
      cancel: () => new Promise(() => {}),
    });
    const call = withFetch(async () => new Response(body), { maxResponseBytes: 10 }).getNetworks();
    expect(await settleWithin(call, 1000)).toBe("RESPONSE_TOO_LARGE");
  });

  it("no timer is left behind once such calls settle", async () => {
    const before = timers();
    const calls = [
      withFetch(never, { timeoutMs: 30 }).getNetworks(),
      withFetch(async () => endlessBody().response, { timeoutMs: 30 }).getNetworks(),
      withFetch(async () => new Response(JSON.stringify(networksWire))).getNetworks(),
    ];
    await Promise.allSettled(calls);
    expect(timers()).toBe(before);
  });
});

describe("a signal aborted while the request is being signed", () => {
  it("POST /intents: ABORTED, and nothing reaches the server", async () => {
    server.handle((request) =>
      request.path === "/affiliate/v1/networks" ? { body: networksWire } : { body: permit2IntentWire() },
    );
    const controller = new AbortController();
    const client = createClient({
      baseUrl: server.url,
      retry: false,
      requestSigning: async ({ method }) => {
        if (method === "POST") {
          controller.abort();
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        return { "x-api-key": "key-id", "x-api-signature": "sig" };
      },
    });
    const error = await rejection(client.createIntent({ ...intentParams, signal: controller.signal }));
    expect(error.code).toBe("ABORTED");
    expect(server.requests.filter((request) => request.method === "POST")).toHaveLength(0);
  });

  it("GET status: ABORTED, nothing sent", async () => {
    server.handle(() => ({ body: statusWire("Initiated") }));
    const controller = new AbortController();
    const client = createClient({
      baseUrl: server.url,
      retry: false,
      requestSigning: async () => {
        controller.abort();
        return { "x-api-key": "key-id", "x-api-signature": "sig" };
      },
    });
    const error = await rejection(client.getIntentStatus({ intentId, signal: controller.signal }));
    expect(error.code).toBe("ABORTED");
    expect(server.requests).toHaveLength(0);
  });
});

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

describe("a baseUrl whose text would move the path into a query or fragment", () => {
  for (const bad of [
    "https://swap.example/?x=1",
    "https://swap.example?",
    "https://swap.example#top",
    "https://swap.example/api#",
  ]) {
    it(`${bad}: INVALID_OPTIONS at construction (every request went to "/")`, () => {
      let error: unknown;
      try {
        createClient({ baseUrl: bad, apiKey });
      } catch (caught) {
        error = caught;
      }
      expect(error).toMatchObject({ code: "INVALID_OPTIONS", details: { field: "baseUrl" } });
    });
  }

  it("spaces or tabs around an otherwise good baseUrl (read from a file): requests reach its path", async () => {
    server.handle(() => ({ body: networksWire }));
    const client = createClient({ baseUrl: ` \t${server.url}/api/ \n`, apiKey, retry: false });
    await client.getNetworks();
    expect(server.requests.map((request) => request.path)).toEqual(["/api/affiliate/v1/networks"]);
  });
});

describe("option headers that differ from the client's own only in letter case", () => {
  it("cannot join or replace X-Api-Key, Content-Type or a signature: each reaches the server once, the client's", async () => {
    server.handle((request) =>
      request.path === "/affiliate/v1/networks" ? { body: networksWire } : { body: permit2IntentWire() },
    );
    const headers = {
      "X-Api-Key": "sk_other",
      "Content-Type": "text/plain",
      "X-API-SIGNATURE": "forged",
      "X-Api-Timestamp": "1",
    };
    await createClient({ baseUrl: server.url, apiKey, retry: false, headers }).createIntent(intentParams);
    const [post] = server.requests.filter((request) => request.method === "POST");
    expect(post?.headers["x-api-key"]).toBe(apiKey);
    expect(post?.headers["content-type"]).toBe("application/json");
    const signed = createClient({
      baseUrl: server.url,
      retry: false,
      headers,
      requestSigning: async () => ({
        "x-api-key": "key-id",
        "x-api-signature": "sig",
        "x-api-timestamp": "9",
      }),
    });
    await signed.getIntentStatus({ intentId }).catch(() => {});
    const get = server.requests.at(-1);
    expect([
      get?.headers["x-api-key"],
      get?.headers["x-api-signature"],
      get?.headers["x-api-timestamp"],
    ]).toEqual(["key-id", "sig", "9"]);
  });

  it("a header the client does not set is sent once, under its name in lower case; hooks see one entry per name", async () => {
    server.handle(() => ({ body: networksWire }));
    const seen: Record<string, string>[] = [];
    await createClient({
      baseUrl: server.url,
      apiKey,
      retry: false,
      headers: { "X-Partner": "wallet-a", Accept: "application/json" },
      hooks: { onRequest: (event) => seen.push(event.headers) },
    }).getNetworks();
    expect(server.requests[0]?.headers["x-partner"]).toBe("wallet-a");
    expect(server.requests[0]?.headers.accept).toBe("application/json");
    expect(Object.keys(seen[0] ?? {}).sort()).toEqual(["accept", "x-api-key", "x-partner"]);
  });
});

describe("a query value that is not well-formed Unicode (a search text cut inside an emoji)", () => {
  it("getTokens and getSwapHistory: INVALID_INPUT naming the parameter, nothing sent (was a raw URIError)", async () => {
    server.handle(() => ({ body: { data: [], total: 0, limit: 20, offset: 0 } }));
    const client = createClient({ baseUrl: server.url, apiKey, retry: false });
    const calls = {
      q: () => client.getTokens({ q: "usd\ud83d" }),
      wallet: () => client.getSwapHistory({ wallet: "\udc00abc" }),
    };
    for (const [field, call] of Object.entries(calls))
      expect(await rejection(call)).toMatchObject({ code: "INVALID_INPUT", details: { field } });
    expect(server.requests).toHaveLength(0);
  });
});

describe("every 3xx is a refused redirect", () => {
  for (const status of [300, 304, 305, 306, 399]) {
    it(`${status} with a Location elsewhere: REDIRECT_REFUSED (was HTTP_ERROR), nothing sent there, not retried`, async () => {
      const elsewhere = await startTestServer();
      try {
        server.handle(() => ({ status, headers: { location: `${elsewhere.url}/steal` }, body: "" }));
        const error = await rejection(createClient({ baseUrl: server.url, apiKey }).getNetworks());
        expect(error).toMatchObject({ code: "REDIRECT_REFUSED", details: { status } });
        expect(server.requests).toHaveLength(1);
        expect(elsewhere.requests).toHaveLength(0);
      } finally {
        await elsewhere.close();
      }
    });
  }
});
