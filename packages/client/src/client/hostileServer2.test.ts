/**
 * A hostile server and a careless caller against the transport. Each describe names one class of attack; the probes
 * that are refused stay as tests, so a regression shows.
 */
import { createVerify, generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intentId, networksWire, permit2IntentWire, quoteId, statusWire } from "../../test/fixtures.js";
import { rejection } from "../../test/helpers.js";
import { type ReceivedRequest, startTestServer, type TestServer } from "../../test/startTestServer.js";
import { createRequestSigner } from "../signing/createRequestSigner.js";
import { createSwapIntentClient } from "./createSwapIntentClient.js";

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
  return createSwapIntentClient({ baseUrl, apiKey, retry: false, fetch: fetchFn as typeof fetch, ...extra });
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
    expect(timers()).toBeLessThanOrEqual(before); // other tests' timers may end meanwhile, none of these calls may add one
  });
});

describe("a signal aborted while the request is being signed", () => {
  it("POST /intents: ABORTED, and nothing reaches the server", async () => {
    server.handle((request) =>
      request.path === "/affiliate/v1/networks" ? { body: networksWire } : { body: permit2IntentWire() },
    );
    const controller = new AbortController();
    const client = createSwapIntentClient({
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
    const client = createSwapIntentClient({
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
        createSwapIntentClient({ baseUrl: bad, apiKey });
      } catch (caught) {
        error = caught;
      }
      expect(error).toMatchObject({ code: "INVALID_OPTIONS", details: { field: "baseUrl" } });
    });
  }

  it("spaces or tabs around an otherwise good baseUrl (read from a file): requests reach its path", async () => {
    server.handle(() => ({ body: networksWire }));
    const client = createSwapIntentClient({ baseUrl: ` \t${server.url}/api/ \n`, apiKey, retry: false });
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
    await createSwapIntentClient({ baseUrl: server.url, apiKey, retry: false, headers }).createIntent(
      intentParams,
    );
    const [post] = server.requests.filter((request) => request.method === "POST");
    expect(post?.headers["x-api-key"]).toBe(apiKey);
    expect(post?.headers["content-type"]).toBe("application/json");
    const signed = createSwapIntentClient({
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
    await createSwapIntentClient({
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
    const client = createSwapIntentClient({ baseUrl: server.url, apiKey, retry: false });
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
        const error = await rejection(createSwapIntentClient({ baseUrl: server.url, apiKey }).getNetworks());
        expect(error).toMatchObject({ code: "REDIRECT_REFUSED", details: { status } });
        expect(server.requests).toHaveLength(1);
        expect(elsewhere.requests).toHaveLength(0);
      } finally {
        await elsewhere.close();
      }
    });
  }
});

describe("probes that held", () => {
  it("request signing: a verifier rebuilding METHOD:PATH:QUERY:BODY from the raw request accepts unicode, reserved characters, repeated keys, an empty body and a unicode path prefix", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    /** An independent canonical form: URLSearchParams parses the raw query, a stable sort by key, encodeURIComponent. */
    const canonical = (request: ReceivedRequest) => {
      const pairs = [...new URLSearchParams(request.rawQuery)].sort(([a], [b]) =>
        a < b ? -1 : a > b ? 1 : 0,
      );
      const query = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
      return `${request.method}:${request.path}:${query}:${request.body}`;
    };
    const verified = (request: ReceivedRequest) =>
      createVerify("RSA-SHA256")
        .update(canonical(request), "utf8")
        .verify(publicKey, String(request.headers["x-api-signature"]), "base64");
    server.handle((request) =>
      request.path.endsWith("/quotes/best")
        ? { status: 422, body: { code: 422, message: "no route", entity: "Quote" } }
        : { body: { data: [], total: 0, limit: 20, offset: 0 } },
    );
    const client = createSwapIntentClient({
      baseUrl: `${server.url}/ä pi`,
      retry: false,
      requestSigning: createRequestSigner({
        privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
        publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
      }),
    });
    // only what the server received matters here: the answers may not parse
    await client.getTokens({ q: "日本 €/&=?+%20😀", networkId: 7, limit: 3 }).catch(() => {});
    await client
      .getSwapHistory({ wallet: ["0xb", "0xa", "0xb"], retailId: "r&1=2", active: true })
      .catch(() => {});
    await client
      .getBestQuote({
        sourceChain: 1,
        sourceToken: "0xé",
        destChain: 2,
        destToken: "😀\u2028",
        amount: "1",
        slippageBps: 5,
      })
      .catch(() => {});
    expect(server.requests).toHaveLength(3);
    expect(server.requests[0]?.path).toBe("/%C3%A4%20pi/affiliate/v1/tokens");
    expect(server.requests[1]?.query.getAll("wallet")).toEqual(["0xb", "0xa", "0xb"]);
    for (const request of server.requests) expect(verified(request)).toBe(true);
  });

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

  it("a fetch that returns no Response, or throws what is not an Error: NETWORK_ERROR, never a raw TypeError", async () => {
    const fetches: Array<() => unknown> = [
      async () => undefined,
      async () => "200 OK",
      async () => ({ status: 200, ok: true }),
      async () => {
        throw "socket closed";
      },
      async () => {
        throw undefined;
      },
      () => {
        throw new Error("synchronous");
      },
    ];
    for (const fetchFn of fetches)
      expect((await rejection(withFetch(fetchFn).getNetworks())).code).toBe("NETWORK_ERROR");
  });

  it("an abort during a Retry-After wait ends the call at once, with no timer left; Retry-After above maxRetryAfterMs is not waited", async () => {
    const before = timers();
    const busy = async () => new Response("{}", { status: 503, headers: { "retry-after": "20" } });
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 30);
    const error = await rejection(
      withFetch(busy, { retry: { retries: 3 } }).getNetworks({ signal: controller.signal }),
    );
    expect(error.code).toBe("ABORTED");
    expect(Date.now() - started).toBeLessThan(1000);
    expect(timers()).toBeLessThanOrEqual(before); // other tests' timers may end meanwhile, none of these calls may add one
    const tooLong = async () => new Response("{}", { status: 429, headers: { "retry-after": "31" } });
    const limited = await rejection(withFetch(tooLong, { retry: { retries: 3 } }).getNetworks());
    expect(limited).toMatchObject({ code: "RATE_LIMITED", details: { retryAfterMs: 31_000 } });
  });
});

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
