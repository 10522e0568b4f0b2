/**
 * A hostile server, against real node:http servers: what a server can still push
 * into errors, hooks and results, and what it can make the client spend. Each describe names one class of
 * attack; the probes that are refused stay as tests, so a regression shows.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { intentId, networksWire, quoteId, statusWire } from "../../test/fixtures.js";
import { rejection } from "../../test/helpers.js";
import { startTestServer, type TestServer } from "../../test/startTestServer.js";
import { createSwapIntentClient } from "./createSwapIntentClient.js";

const apiKey = "sk_live_Hostile2Key9";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

function client(extra: Partial<Parameters<typeof createSwapIntentClient>[0]> = {}) {
  return createSwapIntentClient({
    baseUrl: server.url,
    apiKey,
    retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2 },
    ...extra,
  });
}

/** Everything an error can show: message, stack, details, cause chain, toString and JSON. */
function everything(error: unknown): string {
  return [
    inspect(error, { depth: 20, showHidden: true }),
    String(error),
    (error as Error).stack,
    JSON.stringify(error),
  ].join("\n");
}

/** A raw node:http server for replies the test server cannot make (compressed bytes, hand-written heads). */
async function startRawServer(handler: (request: IncomingMessage, response: ServerResponse) => void) {
  const raw = createServer(handler);
  await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(raw.address() as AddressInfo).port}`,
    close: () => {
      raw.closeAllConnections();
      return new Promise<void>((resolve) => raw.close(() => resolve()));
    },
  };
}

describe("server text carried out of a result into a later error", () => {
  it("WAIT_TIMEOUT: an unknown status that echoes the key (100 kB) is reported as Unknown, not quoted", async () => {
    server.handle(() => ({ body: statusWire(`${apiKey}${"s".repeat(100_000)}`) }));
    const error = await rejection(client().waitForIntent({ intentId, intervalMs: 5, timeoutMs: 1500 }));
    expect(error.code).toBe("WAIT_TIMEOUT");
    expect(error.details.lastStatus).toBe("Unknown");
    expect(everything(error)).not.toContain(apiKey);
    expect(everything(error).length).toBeLessThan(10_000);
  });

  it("WAIT_TIMEOUT: a known status keeps the service's spelling", async () => {
    server.handle(() => ({ body: statusWire("RefundRquested") }));
    const error = await rejection(client().waitForIntent({ intentId, intervalMs: 5, timeoutMs: 1500 }));
    expect(error.details.lastStatus).toBe("RefundRquested");
  });
});

describe("numbers and dates a server can make absurd", () => {
  const lotsCases: Array<[string, unknown]> = [
    ["6 million digits (seconds of CPU as a bigint)", "9".repeat(6_000_000)],
    ["79 digits (wider than a uint256)", "1".repeat(79)],
    ["negative", "-1"],
    ["exponent notation", "1e30"],
    ["a decimal", "1.5"],
    ["a number beyond 2^53", 2 ** 53 + 2],
    ["a negative number", -5],
  ];
  for (const [name, lots] of lotsCases) {
    it(`lots as ${name}: RESPONSE_INVALID naming the field`, async () => {
      server.handle(() => ({ body: statusWire("Initiated", { source_amount_lots: lots }) }));
      const error = await rejection(client({ retry: false }).getIntentStatus({ intentId }));
      expect(error.code).toBe("RESPONSE_INVALID");
      expect((error.details.issues as Array<{ path: string }>)[0]?.path).toBe("source_amount_lots");
    });
  }

  it("lots of exactly 78 digits (the uint256 maximum) pass, as an exact bigint", async () => {
    const max = (2n ** 256n - 1n).toString();
    expect(max).toHaveLength(78);
    server.handle(() => ({ body: statusWire("Initiated", { source_amount_lots: max }) }));
    const status = await client().getIntentStatus({ intentId });
    expect(status.sourceAmountLots).toBe(2n ** 256n - 1n);
  });

  for (const date of [
    "1",
    "-5",
    "March 7",
    "2026",
    "2026-11-22 10:00",
    "+275760-09-13T00:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-02-31T00:00:00Z",
    "2025-02-29",
  ]) {
    it(`a timestamp ${JSON.stringify(date)} is refused (Date.parse alone takes some of these)`, async () => {
      const metadata = { ...(statusWire("Initiated").swap_metadata as object), created_at: date };
      server.handle(() => ({ body: statusWire("Initiated", { swap_metadata: metadata }) }));
      const error = await rejection(client({ retry: false }).getIntentStatus({ intentId }));
      expect(error.code).toBe("RESPONSE_INVALID");
      expect((error.details.issues as Array<{ path: string }>)[0]?.path).toBe("swap_metadata.created_at");
    });
  }

  for (const date of [
    "2026-11-22T10:00:00Z",
    "2026-11-22T10:00:00.123+02:00",
    "2026-11-22",
    "2024-02-29T23:59:59Z",
  ]) {
    it(`an ISO timestamp ${date} is read`, async () => {
      const metadata = { ...(statusWire("Initiated").swap_metadata as object), created_at: date };
      server.handle(() => ({ body: statusWire("Initiated", { swap_metadata: metadata }) }));
      const status = await client().getIntentStatus({ intentId });
      expect(status.swapMetadata.createdAt?.getTime()).toBe(Date.parse(date));
    });
  }
});

describe("decimals a formatter would refuse later", () => {
  for (const field of ["source_amount_decimals", "dest_amount_decimals"]) {
    it(`${field} of 256 (formatLots takes 0..255; 2^53 would build a string of that length): RESPONSE_INVALID`, async () => {
      server.handle(() => ({ body: statusWire("Initiated", { [field]: 256 }) }));
      const error = await rejection(client({ retry: false }).getIntentStatus({ intentId }));
      expect(error.code).toBe("RESPONSE_INVALID");
      expect(error.details.issues).toEqual([{ path: field, message: "expected at most 255" }]);
    });
  }

  it("255 decimals pass", async () => {
    server.handle(() => ({ body: statusWire("Initiated", { dest_amount_decimals: 255 }) }));
    expect((await client().getIntentStatus({ intentId })).destAmountDecimals).toBe(255);
  });
});

describe("memory and time a server can make the client spend (found bounded)", () => {
  const encoders = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync } as const;
  for (const [encoding, encode] of Object.entries(encoders)) {
    it(`a ${encoding} bomb (256 MiB of spaces) stops at maxResponseBytes of decompressed text`, async () => {
      const bomb = encode(Buffer.alloc(256 * 1024 * 1024, 0x20));
      const raw = await startRawServer((_request, response) => {
        response.writeHead(200, {
          "content-type": "application/json",
          "content-encoding": encoding,
          "content-length": bomb.length,
        });
        response.end(bomb);
      });
      try {
        const limit = 1024 * 1024;
        const error = await rejection(
          createSwapIntentClient({
            baseUrl: raw.url,
            apiKey,
            retry: false,
            maxResponseBytes: limit,
          }).getNetworks(),
        );
        expect(error.code).toBe("RESPONSE_TOO_LARGE");
        // fetch decompresses before the count: the limit holds on the text, within one decoder chunk or two
        expect(error.details.receivedBytes).toBeGreaterThan(limit);
        expect(error.details.receivedBytes).toBeLessThan(limit + 256 * 1024);
      } finally {
        await raw.close();
      }
    });
  }

  it("a body that never ends and headers that never end (slowloris) both fail with TIMEOUT on time", async () => {
    const endless = await startRawServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write("[");
      const drip = setInterval(() => (response.destroyed ? clearInterval(drip) : response.write(" ")), 20);
    });
    const slowloris = await startRawServer((request) => {
      request.socket.write("HTTP/1.1 200 OK\r\n");
      const drip = setInterval(
        () => (request.socket.destroyed ? clearInterval(drip) : request.socket.write("x-drip: 1\r\n")),
        20,
      );
    });
    try {
      for (const url of [endless.url, slowloris.url]) {
        const error = await rejection(
          createSwapIntentClient({ baseUrl: url, apiKey, retry: false, timeoutMs: 300 }).getNetworks(),
        );
        expect(error.code).toBe("TIMEOUT");
      }
    } finally {
      await endless.close();
      await slowloris.close();
    }
  });

  it("content-length lies and 20,000 headers: coded errors, nothing thrown raw", async () => {
    const heads = [
      "HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\n[]", // promises more than it sends
      "HTTP/1.1 200 OK\r\ncontent-length: 1\r\n\r\n[]", // less: the body is cut at 1 byte
      "HTTP/1.1 200 OK\r\ncontent-length: -5\r\n\r\n[]",
      `HTTP/1.1 200 OK\r\n${"x-h: y\r\n".repeat(20_000)}content-length: 2\r\n\r\n[]`,
    ];
    const codes: string[] = [];
    for (const head of heads) {
      const raw = await startRawServer((request) => request.socket.end(head));
      try {
        codes.push(
          (await rejection(createSwapIntentClient({ baseUrl: raw.url, apiKey, retry: false }).getNetworks()))
            .code,
        );
      } finally {
        await raw.close();
      }
    }
    expect(codes).toEqual(["NETWORK_ERROR", "RESPONSE_INVALID", "NETWORK_ERROR", "NETWORK_ERROR"]);
  });

  it("200 concurrent waitForIntent against a server answering in 50 ms all end, with no timer left behind", async () => {
    let polls = 0;
    server.handle(async () => {
      polls++;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { body: statusWire(polls > 600 ? "Fulfilled" : "Initiated") };
    });
    const shared = client({ retry: false });
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, () =>
        shared.waitForIntent({ intentId, intervalMs: 10, timeoutMs: 20_000 }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(200);
  }, 30_000);
});

describe("a body streamed in chunks that split a character", () => {
  it("decodes every multi-byte character cut between two chunks whole, at each cut point", async () => {
    const names = ["Réseau €uro", "𝔘nicode ✓"];
    const bytes = new TextEncoder().encode(
      JSON.stringify(names.map((name, index) => ({ ...networksWire[0], id: index + 1, name }))),
    );
    for (let cut = 1; cut < bytes.length; cut++) {
      const fetch = async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(bytes.slice(0, cut));
              controller.enqueue(bytes.slice(cut));
              controller.close();
            },
          }),
          { status: 200, headers: { "content-type": "application/json" } },
        );
      const networks = await createSwapIntentClient({
        baseUrl: "https://swap.example",
        apiKey,
        fetch,
      }).getNetworks();
      expect(networks.map((network) => network.name)).toEqual(names);
    }
  });
});

describe("a state-changing POST is sent once, whatever the server does", () => {
  const replies = [
    ["a reset after the request was read", { destroy: true }, "NETWORK_ERROR"],
    ["a 503 with Retry-After: 0", { status: 503, headers: { "retry-after": "0" }, body: "" }, "SERVER_ERROR"],
    ["a 429 with Retry-After: 0", { status: 429, headers: { "retry-after": "0" }, body: "" }, "RATE_LIMITED"],
    ["no answer until the timeout", { hang: true }, "TIMEOUT"],
  ] as const;
  for (const [name, reply, code] of replies) {
    it(`createIntent and submitApproval after ${name}: ${code}, one POST each`, async () => {
      server.handle((request) => (request.path.endsWith("/networks") ? { body: networksWire } : reply));
      const fast = client({ timeoutMs: 200 });
      const created = await rejection(
        fast.createIntent({
          quote: quoteId,
          refundAddress: "0xr",
          userSourceAddress: "0xs",
          userDestinationAddress: "0xd",
        }),
      );
      const approved = await rejection(
        fast.submitApproval({
          intentId,
          approval: { type: "permit2", signedData: `0x${"ab".repeat(64)}1c` },
        }),
      );
      expect([created.code, approved.code]).toEqual([code, code]);
      expect(server.requests.filter((r) => r.method === "POST").map((r) => r.path)).toEqual([
        "/affiliate/v1/intents",
        `/affiliate/v1/intents/${intentId}/approvals`,
      ]);
    });
  }
});

describe("a credential echoed in a form the first scrubber missed", () => {
  const escapedUnicode = [...apiKey]
    .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .join("");
  const percentAll = [...apiKey].map((c) => `%${c.charCodeAt(0).toString(16)}`).join("");
  const base64 = Buffer.from(apiKey).toString("base64");
  const echoes: Array<[string, string]> = [
    ["JSON unicode escapes in a JSON body", `{"detail":"${escapedUnicode}"}`],
    ["every character percent-encoded, lower case", `token=${percentAll}`],
    ["upper case", `KEY ${apiKey.toUpperCase()}`],
    ["lower case", `key ${apiKey.toLowerCase()}`],
    ["base64", `b64 ${base64}`],
    ["base64url", `b64url ${Buffer.from(apiKey).toString("base64url")}`],
  ];
  for (const [name, body] of echoes) {
    it(`an error body with the key as ${name}: redacted`, async () => {
      server.handle(() => ({ status: 400, headers: { "content-type": "text/plain" }, body }));
      const error = await rejection(client().getNetworks());
      expect(error.code).toBe("BAD_REQUEST");
      expect(String(error.details.body)).toContain("[redacted]");
      const text = everything(error).toLowerCase();
      for (const form of [apiKey, escapedUnicode, percentAll, base64.replace(/=+$/, "")])
        expect(text).not.toContain(form.toLowerCase());
    });
  }

  it("the key as a response header name (it arrives lower-cased) does not reach onResponse", async () => {
    server.handle(() => ({ headers: { [apiKey]: "1", "x-echo": apiKey.toUpperCase() }, body: networksWire }));
    const events: unknown[] = [];
    await client({ hooks: { onResponse: (event) => events.push(event) } }).getNetworks();
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events).toLowerCase()).not.toContain(apiKey.toLowerCase());
  });

  it("escapes of characters that need them (space, quote, é, slash) are kept as sent", async () => {
    server.handle(() => ({
      status: 400,
      headers: { "content-type": "text/plain" },
      body: 'a %20 \\u0022 \\u00e9 %2F "quoted" plain',
    }));
    const error = await rejection(client().getNetworks());
    expect(error.details.body).toBe('a %20 \\u0022 \\u00e9 %2F "quoted" plain');
  });
});

it("a key that itself holds escape-like text (%41, \\u0041) is still redacted when echoed as is", async () => {
  const oddKey = "k3y%41\\u0041_rest";
  server.handle(() => ({ status: 400, headers: { "content-type": "text/plain" }, body: `echo ${oddKey}` }));
  const error = await rejection(client({ apiKey: oddKey }).getNetworks());
  expect(error.details.body).toBe("echo [redacted]");
});

describe("Retry-After and retry numbers a server or a typo can make absurd", () => {
  for (const value of ["-5", "-1", "1e3", "NaN", "0x10", ""]) {
    it(`Retry-After ${JSON.stringify(value)} is unreadable: ordinary backoff, retries bounded`, async () => {
      server.handle(() => ({ status: 429, headers: { "retry-after": value }, body: "" }));
      const error = await rejection(client().getNetworks());
      expect(error.code).toBe("RATE_LIMITED");
      expect(error.details.retryAfterMs).toBeUndefined();
      expect(server.requests).toHaveLength(3);
    });
  }

  it("Retry-After of years, as seconds or as a date: RATE_LIMITED at once, no second request", async () => {
    for (const value of ["99999999999999", "Tue, 01 Jan 2999 00:00:00 GMT"]) {
      server.handle(() => ({ status: 429, headers: { "retry-after": value }, body: "" }));
      const error = await rejection(client().getNetworks());
      expect(error.code).toBe("RATE_LIMITED");
      expect(error.details.retryAfterMs).toBeGreaterThan(30_000);
      expect(server.requests).toHaveLength(1);
    }
  });

  it("a 429 storm with Retry-After: 0 ends after the configured retries", async () => {
    server.handle(() => ({ status: 429, headers: { "retry-after": "0" }, body: "" }));
    const error = await rejection(client({ retry: { retries: 5 } }).getNetworks());
    expect(error.code).toBe("RATE_LIMITED");
    expect(server.requests).toHaveLength(6);
  });

  const badOptions: Array<[string, Partial<Parameters<typeof createSwapIntentClient>[0]>]> = [
    ["retry.retries", { retry: { retries: Number.POSITIVE_INFINITY } }],
    ["retry.retries", { retry: { retries: 101 } }],
    ["retry.retries", { retry: { retries: -1 } }],
    ["retry.maxRetryAfterMs", { retry: { maxRetryAfterMs: 365 * 24 * 3600 * 1000 } }],
    ["retry.baseDelayMs", { retry: { baseDelayMs: Number.NaN } }],
    ["retry.maxDelayMs", { retry: { maxDelayMs: 1.5 } }],
    ["timeoutMs", { timeoutMs: 2 ** 31 }],
    ["timeoutMs", { timeoutMs: Number.POSITIVE_INFINITY }],
  ];
  for (const [field, options] of badOptions) {
    it(`${field} ${JSON.stringify(Object.values(options)[0], (_k, v) => (typeof v === "number" ? String(v) : v))}: INVALID_OPTIONS at construction (a timer above 2^31 - 1 ms fires at once)`, async () => {
      const error = await rejection(() => client(options));
      expect(error.code).toBe("INVALID_OPTIONS");
      expect(error.details.field).toBe(field);
    });
  }

  it("a per-call timeoutMs beyond a timer's range: INVALID_INPUT, nothing sent", async () => {
    server.handle(() => ({ body: networksWire }));
    const error = await rejection(client().getNetworks({ timeoutMs: 2 ** 31 }));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.details.field).toBe("timeoutMs");
    expect(server.requests).toHaveLength(0);
  });
});

describe("credentials the client sends in a form fetch changes or refuses", () => {
  it("a key with a trailing newline (read from a file): sent trimmed, and its echo is still redacted", async () => {
    server.handle((request) => ({
      status: 401,
      body: { code: 401, message: `bad ${request.headers["x-api-key"]}` },
    }));
    const error = await rejection(client({ apiKey: `${apiKey}\n` }).getNetworks());
    expect(server.requests[0]?.headers["x-api-key"]).toBe(apiKey);
    expect(error.details.serverMessage).toBe("bad [redacted]");
    expect(everything(error)).not.toContain(apiKey);
  });

  const unsendable: Array<[string, Partial<Parameters<typeof createSwapIntentClient>[0]>, string]> = [
    ["a key with a non-Latin-1 character", { apiKey: `${apiKey}\u2603` }, "apiKey"],
    ["a key with CR LF inside (header injection)", { apiKey: `${apiKey}\r\nx-evil: 1` }, "apiKey"],
    ["a custom header value with a newline inside", { headers: { "x-token": `${apiKey}\nmore` } }, "headers"],
    ["a header name that is no HTTP token", { headers: { "x token": "1" } }, "headers"],
  ];
  for (const [name, options, field] of unsendable) {
    it(`${name}: INVALID_OPTIONS at construction, the value never quoted`, async () => {
      const error = await rejection(() => client(options));
      expect(error.code).toBe("INVALID_OPTIONS");
      expect(error.details.field).toBe(field);
      expect(everything(error)).not.toContain(apiKey);
    });
  }

  it("a custom signer returning an unsendable header: INVALID_OPTIONS before anything is sent, not retried", async () => {
    server.handle(() => ({ body: networksWire }));
    let calls = 0;
    const signer = async () => {
      calls++;
      return { "x-api-key": "id", "x-api-signature": `${apiKey}\n\nsmuggled` };
    };
    const error = await rejection(client({ apiKey: undefined, requestSigning: signer }).getNetworks());
    expect(error.code).toBe("INVALID_OPTIONS");
    expect(error.details.header).toBe("x-api-signature");
    expect(everything(error)).not.toContain(apiKey);
    expect(server.requests).toHaveLength(0);
    expect(calls).toBe(1);
  });

  it("a baseUrl with a user name and password: INVALID_OPTIONS (fetch's own error quotes the password)", async () => {
    const withPassword = server.url.replace("http://", `http://user:${apiKey}@`);
    const error = await rejection(() => createSwapIntentClient({ baseUrl: withPassword, apiKey: "k" }));
    expect(error.code).toBe("INVALID_OPTIONS");
    expect(error.details.field).toBe("baseUrl");
    expect(everything(error)).not.toContain(apiKey);
  });
});

it("a 3 MB list of a million empty objects: RESPONSE_INVALID at the first, without collecting a million issues", async () => {
  server.handle(() => ({
    headers: { "content-type": "application/json" },
    body: `[${Array(1_000_000).fill("{}").join(",")}]`,
  }));
  const error = await rejection(client({ retry: false }).getNetworks());
  expect(error.code).toBe("RESPONSE_INVALID");
  // one issue, not ten of millions: collecting every issue took 33 s and 2.7 GB of heap (measured once)
  expect(error.details.issues).toEqual([{ path: "0.id", message: "missing" }]);
});
