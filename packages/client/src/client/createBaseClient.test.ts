import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { networksWire, quoteWire, statusWire } from "../../test/fixtures.js";
import { readLinearly } from "../../test/linearReads.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";
import { isSwapIntentError } from "../errors/swapIntentError.js";
import { createRequestSigner } from "../signing/createRequestSigner.js";
import { createSwapIntentClient } from "./createSwapIntentClient.js";
import type { RequestEvent, ResponseEvent, RetryEvent } from "./types.js";

const intentId = "9b8a7c6d-5e4f-4a3b-9c2d-1e0f2a3b4c5d";
const quoteId = "4f1c2a3b-5d6e-4f70-8a9b-0c1d2e3f4a5b";
const apiKey = "sk_test_0123456789abcdef";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

function client(
  extra: Parameters<typeof createSwapIntentClient>[0] extends infer O ? Partial<O> : never = {},
) {
  return createSwapIntentClient({
    baseUrl: server.url,
    apiKey,
    retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 4 },
    ...extra,
  });
}

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; details: Record<string, unknown>; shortMessage: string };
  }
  throw new Error("expected the call to fail");
}

/** The `details.field` of the INVALID_OPTIONS error `make` throws, or what went otherwise. */
function fieldOf(make: () => unknown) {
  try {
    make();
  } catch (error) {
    return isSwapIntentError(error, "INVALID_OPTIONS") ? error.details.field : "wrong code";
  }
  return "no error";
}

const quoteParams = {
  sourceChain: 1,
  sourceToken: "0xA0b8",
  destChain: 5,
  destToken: "So11",
  amount: "1.5",
  slippageBps: 50,
};

describe("HTTP error statuses", () => {
  const cases: Array<[number, string]> = [
    [400, "BAD_REQUEST"],
    [401, "UNAUTHORIZED"],
    [403, "FORBIDDEN"],
    [404, "NOT_FOUND"],
    [409, "HTTP_ERROR"],
    [422, "UNPROCESSABLE"],
    [500, "SERVER_ERROR"],
  ];
  for (const [status, code] of cases) {
    it(`maps ${status} to ${code} with the server's code, message and entity`, async () => {
      server.handle(() => ({
        status,
        body: { code: status, message: `failure ${status}`, entity: "Intent" },
      }));
      const error = await failure(client().getIntentStatus({ intentId }));
      expect(isSwapIntentError(error, code)).toBe(true);
      expect(error.details).toMatchObject({
        status,
        serverCode: status,
        serverMessage: `failure ${status}`,
        entity: "Intent",
        method: "GET",
        path: `/affiliate/v1/intents/${intentId}/status`,
      });
      expect(server.requests).toHaveLength(1);
    });
  }

  it("tolerates the {code, type, message} error body", async () => {
    server.handle(() => ({
      status: 422,
      body: { code: "QUOTE_EXPIRED", type: "QuoteExpired", message: "too late" },
    }));
    const error = await failure(
      client().createIntent({
        quote: quoteId,
        refundAddress: "a",
        userSourceAddress: "a",
        userDestinationAddress: "b",
      }),
    );
    expect(error.code).toBe("UNPROCESSABLE");
    expect(error.details).toMatchObject({
      status: 422,
      serverCode: "QUOTE_EXPIRED",
      serverType: "QuoteExpired",
      serverMessage: "too late",
    });
  });

  it("reads `error` where `message` is missing, prefers `message`, and ignores keys of any other type", async () => {
    const cases: Array<[unknown, Record<string, unknown>]> = [
      [
        { code: 400, error: "bad wallet" },
        { serverCode: 400, serverMessage: "bad wallet" },
      ],
      [{ error: "second", message: "first" }, { serverMessage: "first" }],
      [{ message: 5, error: "fallback" }, { serverMessage: "fallback" }],
      [
        { code: true, type: 1, message: null, entity: ["Quote"] },
        { body: '{"code":true,"type":1,"message":null,"entity":["Quote"]}' },
      ],
    ];
    for (const [body, expected] of cases) {
      server.handle(() => ({ status: 400, body }));
      const error = await failure(client().getNetworks());
      expect(error.details).toEqual({
        status: 400,
        method: "GET",
        path: "/affiliate/v1/networks",
        ...expected,
      });
    }
  });

  it("keeps an error body that is JSON but no object as text", async () => {
    for (const body of ["[1,2]", "42", '"text"', "null"]) {
      server.handle(() => ({ status: 400, body }));
      const error = await failure(client().getNetworks());
      expect(error.details).toEqual({ status: 400, method: "GET", path: "/affiliate/v1/networks", body });
    }
  });

  it("keeps a non-JSON error body as text", async () => {
    server.handle(() => ({ status: 500, body: "upstream exploded" }));
    const error = await failure(client().getNetworks());
    expect(error.code).toBe("SERVER_ERROR");
    expect(error.details.body).toBe("upstream exploded");
  });
});

describe("retries", () => {
  for (const status of [502, 503, 504]) {
    it(`retries an idempotent GET on ${status} and succeeds on the third attempt`, async () => {
      server.handle(() =>
        server.requests.length < 3
          ? { status, body: { code: status, message: "busy", entity: "Other" } }
          : { body: networksWire },
      );
      const networks = await client().getNetworks();
      expect(networks).toHaveLength(5);
      expect(server.requests).toHaveLength(3);
    });
  }

  it("gives up after `retries` retries with the last error", async () => {
    server.handle(() => ({ status: 503, body: { code: 503, message: "down", entity: "Other" } }));
    const error = await failure(
      client({ retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 2 } }).getNetworks(),
    );
    expect(error.code).toBe("SERVER_ERROR");
    expect(error.details.status).toBe(503);
    expect(server.requests).toHaveLength(4);
  });

  it("does not retry 500, 400, 404 or 422", async () => {
    for (const status of [500, 400, 404, 422]) {
      server.handle(() => ({ status, body: { code: status, message: "no", entity: "Other" } }));
      await failure(client().getNetworks());
      expect(server.requests).toHaveLength(1);
    }
  });

  it("retries best quote (idempotent) on 502", async () => {
    server.handle(() => (server.requests.length < 2 ? { status: 502, body: "" } : { body: quoteWire() }));
    const quote = await client().getBestQuote(quoteParams);
    expect(quote.id).toBe(quoteId);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]?.body).toBe(server.requests[1]?.body);
  });

  it("retries a dropped connection (NETWORK_ERROR) and reports it when retries run out", async () => {
    server.handle(() => ({ destroy: true }));
    const error = await failure(client().getIntentStatus({ intentId }));
    expect(error.code).toBe("NETWORK_ERROR");
    expect(server.requests).toHaveLength(3);
  });

  it("does not retry when retry is false", async () => {
    server.handle(() => ({ status: 503, body: "" }));
    await failure(client({ retry: false }).getNetworks());
    expect(server.requests).toHaveLength(1);
  });

  it("backs off with jitter inside [base·2^n / 2, base·2^n], capped", async () => {
    server.handle(() => ({ status: 503, body: "" }));
    const retries: RetryEvent[] = [];
    await failure(
      client({
        retry: { retries: 3, baseDelayMs: 8, maxDelayMs: 20 },
        hooks: { onRetry: (e) => retries.push(e) },
      }).getNetworks(),
    );
    expect(retries.map((r) => r.attempt)).toEqual([0, 1, 2]);
    const [first, second, third] = retries.map((r) => r.delayMs);
    expect(first).toBeGreaterThanOrEqual(4);
    expect(first).toBeLessThanOrEqual(8);
    expect(second).toBeGreaterThanOrEqual(8);
    expect(second).toBeLessThanOrEqual(16);
    expect(third).toBeGreaterThanOrEqual(10);
    expect(third).toBeLessThanOrEqual(20);
  });
});

describe("429 and Retry-After", () => {
  it("honours Retry-After in seconds", async () => {
    server.handle(() =>
      server.requests.length === 1
        ? {
            status: 429,
            headers: { "retry-after": "1" },
            body: { code: 429, message: "slow down", entity: "Other" },
          }
        : { body: networksWire },
    );
    const retries: RetryEvent[] = [];
    await client({ hooks: { onRetry: (e) => retries.push(e) } }).getNetworks();
    expect(server.requests).toHaveLength(2);
    expect(retries).toHaveLength(1);
    expect(retries[0]?.delayMs).toBe(1000);
    expect(retries[0]?.error.code).toBe("RATE_LIMITED");
  });

  it("honours Retry-After as an HTTP date", async () => {
    // the machine's clock on a whole second, and standing still: the wait is exactly the 2 s the date asks for
    const nowMs = 1_750_000_000_000;
    const at = new Date(nowMs + 2000).toUTCString();
    server.handle(() =>
      server.requests.length === 1
        ? { status: 429, headers: { "retry-after": at }, body: "" }
        : { body: networksWire },
    );
    const retries: RetryEvent[] = [];
    vi.useFakeTimers({ toFake: ["Date"], now: nowMs });
    try {
      await client({ hooks: { onRetry: (e) => retries.push(e) } }).getNetworks();
    } finally {
      vi.useRealTimers();
    }
    expect(server.requests).toHaveLength(2);
    expect(retries[0]?.delayMs).toBe(2000);
  });

  it("fails with RATE_LIMITED and retryAfterMs when Retry-After exceeds maxRetryAfterMs", async () => {
    server.handle(() => ({
      status: 429,
      headers: { "retry-after": "120" },
      body: { code: 429, message: "later", entity: "Other" },
    }));
    const error = await failure(client().getNetworks());
    expect(error.code).toBe("RATE_LIMITED");
    expect(error.details.retryAfterMs).toBe(120_000);
    expect(server.requests).toHaveLength(1);
  });

  it("honours Retry-After on a 503 too", async () => {
    server.handle(() =>
      server.requests.length === 1
        ? { status: 503, headers: { "retry-after": "0" }, body: "" }
        : { body: networksWire },
    );
    const retries: RetryEvent[] = [];
    await client({
      retry: { retries: 1, baseDelayMs: 5000 },
      hooks: { onRetry: (e) => retries.push(e) },
    }).getNetworks();
    expect(retries.map((r) => r.delayMs)).toEqual([0]);
    expect(server.requests).toHaveLength(2);
  });

  it("retries 429 without Retry-After using backoff", async () => {
    server.handle(() => (server.requests.length === 1 ? { status: 429, body: "" } : { body: networksWire }));
    await client().getNetworks();
    expect(server.requests).toHaveLength(2);
  });
});

describe("non-idempotent calls are never retried", () => {
  for (const status of [429, 502, 503, 504]) {
    it(`createIntent fails on ${status} after one request`, async () => {
      server.handle(() => ({
        status,
        headers: { "retry-after": "0" },
        body: { code: status, message: "x", entity: "Intent" },
      }));
      const error = await failure(
        client().createIntent({
          quote: quoteId,
          refundAddress: "r",
          userSourceAddress: "s",
          userDestinationAddress: "d",
        }),
      );
      expect(error.details.status).toBe(status);
      expect(server.requests).toHaveLength(1);
    });

    it(`submitApproval fails on ${status} after one request`, async () => {
      server.handle(() => ({
        status,
        headers: { "retry-after": "0" },
        body: { code: status, message: "x", entity: "Approval" },
      }));
      const error = await failure(
        client().submitApproval({
          intentId,
          approval: { type: "permit2", signedData: `0x${"11".repeat(64)}1b` },
        }),
      );
      expect(error.details.status).toBe(status);
      expect(server.requests).toHaveLength(1);
    });
  }

  it("createIntent and submitApproval are not retried after a timeout or a dropped connection", async () => {
    server.handle(() => ({ hang: true }));
    const timeout = await failure(
      client({ timeoutMs: 50 }).createIntent({
        quote: quoteId,
        refundAddress: "r",
        userSourceAddress: "s",
        userDestinationAddress: "d",
      }),
    );
    expect(timeout.code).toBe("TIMEOUT");
    expect(server.requests).toHaveLength(1);
    server.handle(() => ({ destroy: true }));
    const dropped = await failure(
      client().submitApproval({ intentId, approval: { type: "psbt", signedData: "cHNidP8BAA==" } }),
    );
    expect(dropped.code).toBe("NETWORK_ERROR");
    expect(server.requests).toHaveLength(1);
  });
});

describe("timeouts and abort", () => {
  it("times out a hanging request with TIMEOUT (and retries GETs)", async () => {
    server.handle(() => ({ hang: true }));
    const error = await failure(client({ timeoutMs: 40 }).getIntentStatus({ intentId }));
    expect(error.code).toBe("TIMEOUT");
    expect(error.details.timeoutMs).toBe(40);
    expect(server.requests).toHaveLength(3);
  });

  it("a per-call timeoutMs overrides the client's", async () => {
    server.handle(() => ({ hang: true }));
    const error = await failure(client({ retry: false }).getIntentStatus({ intentId, timeoutMs: 30 }));
    expect(error.code).toBe("TIMEOUT");
    expect(error.details.timeoutMs).toBe(30);
  });

  it("aborts an in-flight request with ABORTED and does not retry", async () => {
    server.handle(() => ({ hang: true }));
    const controller = new AbortController();
    const pending = client().getIntentStatus({ intentId, signal: controller.signal });
    setTimeout(() => controller.abort(new Error("user left")), 30);
    const error = await failure(pending);
    expect(error.code).toBe("ABORTED");
    expect(server.requests).toHaveLength(1);
  });

  it("an already aborted signal sends nothing", async () => {
    server.handle(() => ({ body: networksWire }));
    const error = await failure(client().getNetworks({ signal: AbortSignal.abort() }));
    expect(error.code).toBe("ABORTED");
    expect(server.requests).toHaveLength(0);
  });

  it("aborting during a backoff wait stops the retries", async () => {
    server.handle(() => ({ status: 429, headers: { "retry-after": "5" }, body: "" }));
    const controller = new AbortController();
    const pending = client().getNetworks({ signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = await failure(pending);
    expect(error.code).toBe("ABORTED");
    expect(server.requests).toHaveLength(1);
  });
});

describe("response bodies", () => {
  it("malformed JSON fails with RESPONSE_INVALID carrying the raw body", async () => {
    server.handle(() => ({
      status: 200,
      headers: { "content-type": "application/json" },
      body: '{"id": 1,',
    }));
    const error = await failure(client().getNetworks());
    expect(error.code).toBe("RESPONSE_INVALID");
    expect(error.details.body).toBe('{"id": 1,');
  });

  it("a response missing a field fails with RESPONSE_INVALID naming the path, with the raw body", async () => {
    const wire = statusWire("Initiated");
    delete wire.source_amount_lots;
    server.handle(() => ({ body: wire }));
    const error = await failure(client().getIntentStatus({ intentId }));
    expect(error.code).toBe("RESPONSE_INVALID");
    expect(error.details.issues).toEqual([{ path: "source_amount_lots", message: "missing" }]);
    expect(error.details.body).toBe(JSON.stringify(wire));
  });

  it("names what was expected for a wrong type or a value out of range", async () => {
    server.handle(() => ({ body: statusWire("Initiated", { intent_id: 7, source_amount_decimals: -1 }) }));
    const error = await failure(client().getIntentStatus({ intentId }));
    // the first problem only: collecting every issue of a hostile body costs without bound (responseCost.test.ts)
    expect(error.details.issues).toEqual([{ path: "intent_id", message: "expected string" }]);
    server.handle(() => ({ body: statusWire("Initiated", { source_amount_decimals: -1 }) }));
    const outOfRange = await failure(client().getIntentStatus({ intentId }));
    expect(outOfRange.details.issues).toEqual([
      { path: "source_amount_decimals", message: "expected at least 0" },
    ]);
    expect(error.shortMessage).toBe(
      "GET /affiliate/v1/intents/9b8a7c6d-5e4f-4a3b-9c2d-1e0f2a3b4c5d/status: response invalid (intent_id: expected string).",
    );
  });

  it("an empty body where a record is expected is RESPONSE_INVALID", async () => {
    server.handle(() => ({ status: 200, body: "" }));
    const error = await failure(client().getIntentStatus({ intentId }));
    expect(error.code).toBe("RESPONSE_INVALID");
  });

  it("an empty or blank body is RESPONSE_INVALID with the body as sent, unless the call allows none", async () => {
    const path = `/affiliate/v1/intents/${intentId}/status`;
    for (const body of ["", " \n\t "]) {
      server.handle(() => ({ status: 200, body }));
      const error = await failure(client().getIntentStatus({ intentId }));
      expect(error.code).toBe("RESPONSE_INVALID");
      expect(error.details).toEqual({ method: "GET", path, body });
      const approval = { type: "permit2", signedData: `0x${"ab".repeat(64)}1c` } as const;
      expect(await client().submitApproval({ intentId, approval })).toBeNull();
    }
    server.handle(() => ({ status: 200, body: "{" }));
    expect((await failure(client().getIntentStatus({ intentId }))).details).toEqual({
      method: "GET",
      path,
      body: "{",
    });
  });
});

describe("hooks", () => {
  it("see every request and response but never the API key", async () => {
    server.handle(() =>
      server.requests.length === 1 ? { status: 503, body: "" } : { body: statusWire("Accepted") },
    );
    const requests: RequestEvent[] = [];
    const responses: ResponseEvent[] = [];
    await client({
      hooks: { onRequest: (e) => requests.push(e), onResponse: (e) => responses.push(e) },
    }).getIntentStatus({
      intentId,
    });
    expect(server.requests[0]?.headers["x-api-key"]).toBe(apiKey);
    expect(requests.map((r) => r.attempt)).toEqual([0, 1]);
    expect(responses.map((r) => r.status)).toEqual([503, 200]);
    expect(requests[0]?.headers["x-api-key"]).toBe("[redacted]");
    expect(JSON.stringify([requests, responses])).not.toContain(apiKey);
    expect(requests[0]?.url).toBe(`${server.url}/affiliate/v1/intents/${intentId}/status`);
  });

  it("the client object and its errors do not reveal the API key", async () => {
    const { inspect } = await import("node:util");
    const c = client();
    expect(inspect(c, { depth: 5 })).not.toContain(apiKey);
    server.handle(() => ({ status: 401, body: { code: 401, message: "bad key", entity: "Other" } }));
    const error = await failure(c.getNetworks());
    expect(inspect(error, { depth: 5 })).not.toContain(apiKey);
  });

  it("a throwing hook does not break the call", async () => {
    server.handle(() => ({ body: networksWire }));
    const networks = await client({
      hooks: {
        onRequest: () => {
          throw new Error("hook bug");
        },
      },
    }).getNetworks();
    expect(networks).toHaveLength(5);
  });
});

describe("options", () => {
  it("sends X-Api-Key and accept headers; a base URL with a trailing slash works", async () => {
    server.handle(() => ({ body: networksWire }));
    await createSwapIntentClient({ baseUrl: `${server.url}/`, apiKey }).getNetworks();
    expect(server.requests[0]?.path).toBe("/affiliate/v1/networks");
    expect(server.requests[0]?.headers["x-api-key"]).toBe(apiKey);
    expect(server.requests[0]?.headers.accept).toBe("application/json");
  });

  it("uses an injected fetch, called unbound", async () => {
    server.handle(() => ({ body: networksWire }));
    const seen: string[] = [];
    // like a browser's fetch, it refuses to run as a method of another object
    const recordingFetch = function (this: unknown, input: RequestInfo | URL, init?: RequestInit) {
      if (this !== undefined && this !== globalThis) throw new TypeError("Illegal invocation");
      seen.push(String(input));
      return fetch(input, init);
    } as typeof fetch;
    await createSwapIntentClient({ baseUrl: server.url, auth: "none", fetch: recordingFetch }).getNetworks();
    expect(seen).toEqual([`${server.url}/affiliate/v1/networks`]);
    expect(server.requests[0]?.headers["x-api-key"]).toBeUndefined();
  });

  it("refuses unusable options with INVALID_OPTIONS", () => {
    expect(fieldOf(() => createSwapIntentClient({ baseUrl: "not a url" }))).toBe("baseUrl");
    expect(fieldOf(() => createSwapIntentClient({ baseUrl: "ftp://host" }))).toBe("baseUrl");
    expect(fieldOf(() => createSwapIntentClient({ baseUrl: server.url, apiKey: "" }))).toBe("apiKey");
    expect(
      fieldOf(() =>
        createSwapIntentClient({
          baseUrl: server.url,
          apiKey,
          requestSigning: createRequestSigner({ privateKey: "x", publicKey: "y" }),
        }),
      ),
    ).toBe("apiKey");
    expect(fieldOf(() => createSwapIntentClient({ baseUrl: server.url, maxResponseBytes: 0 }))).toBe(
      "apiKey",
    );
    expect(fieldOf(() => createSwapIntentClient({ baseUrl: server.url, apiKey, maxResponseBytes: 0 }))).toBe(
      "maxResponseBytes",
    );
    expect(
      fieldOf(() => createSwapIntentClient({ baseUrl: server.url, apiKey, maxResponseBytes: 1.5 })),
    ).toBe("maxResponseBytes");
  });
});

describe("headers", () => {
  it("trims a header value's outer whitespace with linear patterns only, keeping inner whitespace", async () => {
    // `[\t\n\r ]+$` retried from every space of an inner run: 100 000 spaces took seconds at construction
    const inner = " ".repeat(100_000);
    const { superLinear } = await readLinearly(() =>
      createSwapIntentClient({ baseUrl: server.url, apiKey, headers: { "x-note": `\t a${inner}b \n` } }),
    );
    expect(superLinear).toEqual([]);
    server.handle(() => ({ body: networksWire }));
    await client({ headers: { "x-note": " \t a  b\r\n " } }).getNetworks();
    expect(server.requests.at(-1)?.headers["x-note"]).toBe("a  b");
  });
});

describe("credentials are stated at construction", () => {
  it("an undefined apiKey (an unset environment variable) is refused, naming apiKey", () => {
    const env: Record<string, string | undefined> = {};
    expect(
      fieldOf(() => createSwapIntentClient({ baseUrl: server.url, apiKey: env.SWAPINTENT_API_KEY })),
    ).toBe("apiKey");
    expect(fieldOf(() => createSwapIntentClient({ baseUrl: server.url }))).toBe("apiKey");
  });

  it("exactly one credential: any two or three together are refused, naming auth when it is one of them", () => {
    const signer = createRequestSigner({ privateKey: "x", publicKey: "y" });
    const reasonOf = (options: Record<string, unknown>) => {
      try {
        createSwapIntentClient({ baseUrl: server.url, ...options } as never);
      } catch (error) {
        if (isSwapIntentError(error, "INVALID_OPTIONS")) return [error.details.field, error.details.reason];
      }
      return "no error";
    };
    const combined = "cannot be combined with another credential";
    expect(reasonOf({ apiKey, requestSigning: signer })).toEqual(["apiKey", combined]);
    expect(reasonOf({ apiKey, auth: "none" })).toEqual(["auth", combined]);
    expect(reasonOf({ requestSigning: signer, auth: "none" })).toEqual(["auth", combined]);
    expect(reasonOf({ apiKey, requestSigning: signer, auth: "none" })).toEqual(["auth", combined]);
    expect(reasonOf({ auth: null })).toEqual(["auth", 'can only be "none"']);
    expect(reasonOf({ apiKey, auth: "bearer" })).toEqual(["auth", 'can only be "none"']);
    expect(reasonOf({})[0]).toBe("apiKey");
    expect(reasonOf({ auth: "none" })).toBe("no error");
  });

  it('auth: "none" calls without credentials on purpose, and cannot be combined with a key', async () => {
    server.handle(() => ({ body: networksWire }));
    await createSwapIntentClient({ baseUrl: server.url, auth: "none" }).getNetworks();
    expect(server.requests[0]?.headers["x-api-key"]).toBeUndefined();
    expect(fieldOf(() => createSwapIntentClient({ baseUrl: server.url, auth: "none", apiKey }))).toBe("auth");
    expect(
      fieldOf(() =>
        createSwapIntentClient({
          baseUrl: server.url,
          auth: "none",
          requestSigning: createRequestSigner({ privateKey: "x", publicKey: "y" }),
        }),
      ),
    ).toBe("auth");
    const unknownAuth = { baseUrl: server.url, auth: "bearer" } as unknown as Parameters<
      typeof createSwapIntentClient
    >[0];
    expect(fieldOf(() => createSwapIntentClient(unknownAuth))).toBe("auth");
  });
});
