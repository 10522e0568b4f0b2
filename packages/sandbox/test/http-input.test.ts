import { Agent, request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { createTestWallet } from "./support/createTestLeg.js";
import { startTestSandbox, type TestSandbox } from "./support/harness.js";
import { ErrorSchema } from "./support/specSchemas.js";

let t: TestSandbox;
const logs: string[] = [];
beforeAll(async () => {
  t = await startTestSandbox({ log: (message) => logs.push(message) });
});
afterAll(() => t?.close());

function expectError(r: { status: number; body: unknown }, status: number, type: string) {
  expect(r.status).toBe(status);
  expect(r.body).toMatchObject({ code: status, type, message: expect.any(String) });
  ErrorSchema.parse(r.body);
}

/** Send raw bytes on a fresh socket and read everything the server answers until it closes. */
function rawExchange(
  bytes: string | Buffer,
  { closeAfterMs, closedBy }: { closeAfterMs?: number; closedBy?: { server: boolean } } = {},
): Promise<string> {
  const { port } = t.sandbox;
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    // `end`: the server finished its side; a socket the client destroys never sees it
    socket.on("end", () => {
      if (closedBy) closedBy.server = true;
    });
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.write(bytes);
    if (closeAfterMs !== undefined) setTimeout(() => socket.destroy(), closeAfterMs);
  });
}

function parseRawResponse(raw: string) {
  const [head = "", body = ""] = raw.split("\r\n\r\n", 2);
  const status = Number(head.split(" ")[1]);
  return { status, head: head.toLowerCase(), body: body === "" ? undefined : JSON.parse(body) };
}

/** A request through a keep-alive agent (one socket at most), as a long-lived client would send it. */
function agentRequest(
  agent: Agent,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = { "x-api-key": "keep-alive" },
) {
  return new Promise<{ status: number; body: unknown; reusedSocket: boolean }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: t.sandbox.port,
        method,
        path,
        agent,
        headers: {
          ...headers,
          ...(body === undefined
            ? {}
            : { "content-type": "application/json", "content-length": Buffer.byteLength(body) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
            reusedSocket: req.reusedSocket,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const QUOTES = "/affiliate/v1/quotes/best";
const POSTS = [
  QUOTES,
  "/affiliate/v1/intents",
  `/affiliate/v1/intents/${"0".repeat(8)}-0000-4000-8000-${"0".repeat(12)}/approvals`,
  "/sandbox/faucet",
  "/sandbox/clock",
  "/sandbox/faults",
];

describe("bad JSON text is a 400, never a 500", () => {
  test.each([['{"a":"\\x41"}'], ['{"a":"\\u12"}'], ['{"a":"\\u12zz"}'], ['{"\\q":1}'], ['["\\']])(
    "%s on every POST endpoint is 400 MALFORMED_JSON",
    async (body) => {
      for (const path of POSTS) expectError(await t.request("POST", path, body), 400, "MALFORMED_JSON");
    },
  );

  test.each([
    ["a NUL in a value", '{"source_token":"\\u0000"}'],
    ["a NUL in a key", '{"a\\u0000":1}'],
    ["a lone high surrogate", '{"source_token":"\\ud800"}'],
    ["a lone low surrogate deep inside", '{"signed_data":{"x":["ok","\\udc00x"]},"type":"cosign"}'],
  ])("%s is 400 INVALID_TEXT on every POST endpoint", async (_name, body) => {
    for (const path of POSTS) expectError(await t.request("POST", path, body), 400, "INVALID_TEXT");
  });

  test("a well-formed surrogate pair is ordinary text", async () => {
    const r = await t.request("POST", QUOTES, '{"source_token":"\\ud83d\\ude00"}');
    expectError(r, 400, "MISSING_FIELD");
  });
});

describe("text that cannot reach the database is a 400 wherever it comes in", () => {
  test.each([
    "/affiliate/v1/swaps/history?wallet=%00",
    "/affiliate/v1/swaps/history?retail_id=%00",
    "/affiliate/v1/swaps/history?wallet=ok&wallet=a%00b",
    "/affiliate/v1/swaps/history?wallet=x&%00=1",
    "/affiliate/v1/tokens?q=%00",
    "/sandbox/balance?network_id=1&address=%00&token=USDC",
  ])("GET %s is 400 INVALID_TEXT", async (path) => {
    expectError(await t.request("GET", path), 400, "INVALID_TEXT");
  });

  test("history filters that are merely unusual are answered (200, empty)", async () => {
    for (const query of ["wallet=%E2%80%8B", "wallet=%FF%FE", "retail_id=not-a-uuid", "wallet=%25zz"]) {
      const r = await t.request("GET", `/affiliate/v1/swaps/history?${query}`);
      expect(r.status).toBe(200);
      expect(r.body.total).toBe(0);
    }
  });
});

describe("lookups by a client-chosen key find only what is there", () => {
  test.each(["toString", "__proto__", "constructor", "hasOwnProperty", "valueOf", "__defineGetter__"])(
    "approval type %s is 400 INVALID_APPROVAL_TYPE",
    async (type) => {
      const { intent } = await t.createIntent({ fund: false });
      const r = await t.request("POST", `/affiliate/v1/intents/${intent.intent_id}/approvals`, {
        type,
        signed_data: "0x00",
      });
      expectError(r, 400, "INVALID_APPROVAL_TYPE");
    },
  );

  test.each(["toString", "__proto__", "constructor"])("fault %s is 400 UNKNOWN_FAULT", async (key) => {
    expectError(await t.request("POST", "/sandbox/faults", `{"${key}":true}`), 400, "UNKNOWN_FAULT");
  });

  test.each(["toString", "__proto__", "constructor"])(
    "token symbol %s is 400 UNKNOWN_TOKEN",
    async (token) => {
      const r = await t.request("POST", "/sandbox/faucet", {
        network_id: 1,
        address: createTestWallet().address,
        token,
        amount: 1,
      });
      expectError(r, 400, "UNKNOWN_TOKEN");
    },
  );
});

describe("dev clock", () => {
  test("cannot be moved out of the range times are kept in: 400 CLOCK_OUT_OF_RANGE, and quotes still work", async () => {
    for (const secs of [2 ** 53 - 1, 10 ** 12, 101 * 365 * 24 * 3600])
      expectError(
        await t.request("POST", "/sandbox/clock", { advance_secs: secs }),
        400,
        "CLOCK_OUT_OF_RANGE",
      );
    expect((await t.request("GET", "/sandbox/clock")).body.offset_ms).toBe(0);
    expect((await t.quote({})).status).toBe(200);
  });
});

describe("socket level: what node:http refuses is answered in the API's shape", () => {
  test(`a request line over ${64} KiB is 431 HEADERS_TOO_LARGE with a JSON body`, async () => {
    const path = `/affiliate/v1/swaps/history?${"wallet=bc1p".padEnd(70, "q")}${"&wallet=x".repeat(8000)}`;
    const raw = await rawExchange(`GET ${path} HTTP/1.1\r\nHost: x\r\nx-api-key: k\r\n\r\n`);
    const r = parseRawResponse(raw);
    expectError(r, 431, "HEADERS_TOO_LARGE");
    expect(r.head).toContain("connection: close");
    expect(r.head).toContain("content-type: application/json");
  });

  test("a header over the limit gets the same 431 body; a fetch client reads it", async () => {
    const r = await fetch(`${t.sandbox.url}/affiliate/v1/networks`, {
      headers: { "x-api-key": "k", "x-padding": "p".repeat(70 * 1024) },
    });
    expect(r.status).toBe(431);
    expectError({ status: r.status, body: await r.json() }, 431, "HEADERS_TOO_LARGE");
  });

  test("history for 300 Bitcoin wallets (a ~21 kB URL, over node's 16 KiB default) is answered", async () => {
    const wallets = Array.from({ length: 300 }, (_, i) => `bc1p${String(i).padStart(58, "q")}`);
    const query = wallets.map((w) => `wallet=${w}`).join("&");
    expect(query.length).toBeGreaterThan(16 * 1024);
    const r = await t.request("GET", `/affiliate/v1/swaps/history?${query}`);
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(0);
  });

  test("bytes that are not HTTP/1.1 get 400 MALFORMED_REQUEST with a JSON body", async () => {
    const r = parseRawResponse(await rawExchange("GET / HTTP/1.1\r\nBad Header Line\r\n\r\n"));
    expectError(r, 400, "MALFORMED_REQUEST");
    expect(r.head).toContain("connection: close");
  });

  test.each([
    ["OPTIONS *", "OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\n"],
    [
      "a Host header that is not a host",
      "GET /affiliate/v1/networks HTTP/1.1\r\nHost: a b/c\r\nx-api-key: k\r\n",
    ],
    [
      "a backslash in the path",
      "GET /affiliate\\v1/networks HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: k\r\n",
    ],
  ])(
    "a request line node:http parses but that is no URL (%s) gets 400 MALFORMED_REQUEST with a JSON body",
    async (_, head) => {
      const r = parseRawResponse(await rawExchange(`${head}Connection: close\r\n\r\n`));
      expectError(r, 400, "MALFORMED_REQUEST");
    },
  );

  // node:http answered an Expect header other than 100-continue itself: 417 with an empty chunked body, no code.
  test.each(["200-ok", "x"])(
    "Expect: %s gets 417 EXPECTATION_FAILED with a JSON body, and the sandbox keeps serving",
    async (expectation) => {
      const r = parseRawResponse(
        await rawExchange(
          `POST ${QUOTES} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: k\r\nExpect: ${expectation}\r\n` +
            "content-type: application/json\r\ncontent-length: 2\r\nConnection: close\r\n\r\n{}",
        ),
      );
      expectError(r, 417, "EXPECTATION_FAILED");
      expect(r.head).toContain("connection: close");
      expect((await t.request("GET", "/affiliate/v1/networks")).status).toBe(200);
    },
  );

  test("an HTTP/1.1 request without Host is answered as if sent to 127.0.0.1, not with an empty 400", async () => {
    const r = parseRawResponse(
      await rawExchange("GET /affiliate/v1/networks HTTP/1.1\r\nx-api-key: k\r\nConnection: close\r\n\r\n"),
    );
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body)).toBe(true);
  });
});

describe("keep-alive: an error answer never leaves the client a dead socket", () => {
  test.each([
    ["401 MISSING_API_KEY", QUOTES, {}],
    ["404 ROUTE_NOT_FOUND", "/affiliate/v1/nowhere", undefined],
    ["400 INVALID_ID", "/affiliate/v1/intents/not-a-uuid/approvals", undefined],
  ])(
    "after %s answered before a 900 KB body was read, the next request on the agent succeeds",
    async (what, path, headers) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const [status, type] = what.split(" ") as [string, string];
        const big = JSON.stringify({ x: "y".repeat(900_000) });
        const refused = await agentRequest(agent, "POST", path, big, headers);
        expectError(refused, Number(status), type);
        const next = await agentRequest(agent, "GET", "/affiliate/v1/networks");
        expect(next.status).toBe(200);
      } finally {
        agent.destroy();
      }
    },
  );

  test("after 400 BODY_TOO_LARGE (content-length) the next request on the agent succeeds", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await agentRequest(agent, "GET", "/affiliate/v1/networks")).status).toBe(200);
      const big = await agentRequest(agent, "POST", QUOTES, `{"a":"${"x".repeat(1024 * 1024 + 10)}"}`);
      expectError(big, 400, "BODY_TOO_LARGE");
      const next = await agentRequest(agent, "GET", "/affiliate/v1/networks");
      expect(next.status).toBe(200);
      expect(next.reusedSocket).toBe(false); // the server said Connection: close, so the agent opened a new socket
    } finally {
      agent.destroy();
    }
  });

  test("after 400 BODY_TOO_LARGE on a chunked upload, the same", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const big = await new Promise<{ status: number; body: unknown }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: "127.0.0.1",
            port: t.sandbox.port,
            method: "POST",
            path: QUOTES,
            agent,
            headers: { "x-api-key": "keep-alive", "content-type": "application/json" },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c) => chunks.push(c));
            res.on("end", () =>
              resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
            );
          },
        );
        req.on("error", reject);
        for (let i = 0; i < 20; i++) req.write("x".repeat(64 * 1024));
        req.end();
      });
      expectError(big, 400, "BODY_TOO_LARGE");
      expect((await agentRequest(agent, "GET", "/affiliate/v1/networks")).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  test("after a 404 or 400 on a POST whose body was never read, the same socket carries the next request", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await agentRequest(agent, "GET", "/affiliate/v1/networks")).status).toBe(200);
      const unread = `{"a":"${"x".repeat(200 * 1024)}"}`;
      expect((await agentRequest(agent, "POST", "/affiliate/v1/no-such-route", unread)).status).toBe(404);
      const next = await agentRequest(agent, "GET", "/affiliate/v1/networks");
      expect(next.status).toBe(200);
      expect(next.reusedSocket).toBe(true);
    } finally {
      agent.destroy();
    }
  });
});

describe("a client that goes away mid-upload", () => {
  test("is noted as a client abort, not logged as an internal error", async () => {
    logs.length = 0;
    await rawExchange(
      `POST ${QUOTES} HTTP/1.1\r\nHost: x\r\nx-api-key: k\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"a":`,
      { closeAfterMs: 200 },
    );
    for (let i = 0; i < 50 && logs.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(logs.filter((line) => line.includes("internal error"))).toEqual([]);
    expect(logs).toEqual([`client went away during POST ${QUOTES}`]);
    // and the service still answers
    expect((await t.quote({})).status).toBe(200);
  });
});

describe("an error answered before the body arrives", () => {
  test("is not held up by a client that waits for the answer before sending its body", async () => {
    // on a fake clock: the answer waits the 1 s drain for the body, then goes out and the server closes the socket;
    // the client has no timer of its own, so only the server can end the exchange, and only the drain's end lets it
    const drainWaitMs = 1_000;
    const closedBy = { server: false };
    let ended = false;
    /** Real event-loop turns until `done`, for at most 30 s of the real clock (a guard against a hang, not a bound). */
    const turnsUntil = async (done: () => boolean) => {
      for (const until = Date.now() + 30_000; !done() && Date.now() < until; )
        await new Promise((resolve) => setImmediate(resolve));
    };
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    // the delays asked for while the clock is fake (other tests' sockets may still schedule their own)
    const asked: (number | undefined)[] = [];
    const fakeSetTimeout = globalThis.setTimeout;
    globalThis.setTimeout = ((handler: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
      asked.push(ms);
      return fakeSetTimeout(handler, ms, ...args);
    }) as typeof setTimeout;
    let exchange: Promise<string>;
    try {
      exchange = rawExchange(
        `POST /affiliate/v1/nowhere HTTP/1.1\r\nHost: x\r\nx-api-key: k\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n`,
        { closedBy },
      ).finally(() => {
        ended = true;
      });
      await turnsUntil(() => asked.includes(drainWaitMs));
      expect(asked).toContain(drainWaitMs); // the drain's wait
      await vi.advanceTimersByTimeAsync(drainWaitMs - 1);
      expect(ended).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await turnsUntil(() => ended);
      expect(ended).toBe(true);
      await vi.runOnlyPendingTimersAsync(); // what the server's adapter schedules once the socket closed
    } finally {
      globalThis.setTimeout = fakeSetTimeout;
      vi.useRealTimers();
    }
    const r = parseRawResponse(await exchange);
    expectError(r, 404, "ROUTE_NOT_FOUND");
    expect(r.head).toContain("connection: close");
    expect(closedBy.server).toBe(true);
  });
});
