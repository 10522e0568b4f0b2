import { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from "../src/net/slowClientTimeouts.js";
import { startTestSandbox, type TestSandbox } from "./support/harness.js";
import { type SlowClientOutcome, sendSlowly } from "./support/sendSlowly.js";
import { ErrorSchema } from "./support/specSchemas.js";

let t: TestSandbox;
const logs: string[] = [];
/** The servers that began listening while the sandbox started (node sets, but does not declare, the check interval). */
let listened: (Server & { connectionsCheckingInterval?: number })[] = [];
beforeAll(async () => {
  const listening = vi.spyOn(Server.prototype, "listen");
  try {
    t = await startTestSandbox({ log: (message) => logs.push(message) });
  } finally {
    listened = listening.mock.contexts as typeof listened;
    listening.mockRestore();
  }
});
afterAll(() => t?.close());

function expectTimeoutAnswer(result: SlowClientOutcome) {
  expect(result).not.toBe("held");
  if (result === "held") return;
  const [head = "", body = ""] = result.answer.split("\r\n\r\n", 2);
  expect(head).toMatch(/^HTTP\/1\.1 408 /);
  expect(head.toLowerCase()).toContain("connection: close");
  const parsed = JSON.parse(body);
  expect(parsed).toMatchObject({ code: 408, type: "REQUEST_TIMEOUT" });
  ErrorSchema.parse(parsed);
}

/**
 * Slowloris: a client that sends its request a byte at a time (or nothing at all) holds a socket and a request
 * for as long as the server waits. Node's defaults wait 60 s for headers and 300 s for the whole request (checked
 * every 30 s); a sandbox serves clients on 127.0.0.1, whose requests arrive in milliseconds, so it waits
 * HEADERS_TIMEOUT_MS for the headers and REQUEST_TIMEOUT_MS for the whole request, then answers 408.
 */
test("slow clients are cut off: headers or body sent a byte at a time, or nothing sent, get 408 REQUEST_TIMEOUT in bounded time; others are served meanwhile", async () => {
  expect(HEADERS_TIMEOUT_MS).toBeLessThanOrEqual(10_000);
  expect(REQUEST_TIMEOUT_MS).toBeLessThanOrEqual(15_000);
  const giveUpMs = REQUEST_TIMEOUT_MS + 5_000;
  const { port } = t.sandbox;
  // the bound is the server's own, read exactly: its header and request timeouts, checked every 500 ms (node's
  // default check, every 30 s, let a slow client hold on up to 30 s longer)
  const server = listened.find((s) => (s.address() as AddressInfo | null)?.port === port);
  expect(
    server && [server.headersTimeout, server.requestTimeout, server.connectionsCheckingInterval],
  ).toEqual([HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, 500]);
  const cutOff: string[] = [];
  const post = "POST /affiliate/v1/quotes/best HTTP/1.1\r\nHost: x\r\nx-api-key: k\r\n";
  const [headers, body, silent, served] = await Promise.all([
    sendSlowly({
      port,
      head: "GET /affiliate/v1/networks HTTP/1.1\r\n",
      drip: "x-a: b\r\n",
      giveUpMs,
    }).finally(() => cutOff.push("headers")),
    sendSlowly({
      port,
      head: `${post}content-type: application/json\r\ncontent-length: 100000\r\n\r\n`,
      drip: '{"a":1,',
      giveUpMs,
    }).finally(() => cutOff.push("body")),
    sendSlowly({ port, head: "", drip: "", giveUpMs }).finally(() => cutOff.push("silent")),
    (async () => {
      // a normal client is answered while the slow ones hold their sockets
      await new Promise((r) => setTimeout(r, 1_000));
      return (await t.quote({})).status;
    })(),
  ]);
  // each cut by the server (408), not by the client giving up; the two without whole headers at the shorter headers
  // timeout, before the one dripping its body
  for (const result of [headers, body, silent]) expectTimeoutAnswer(result);
  expect(cutOff.at(-1)).toBe("body");
  expect(served).toBe(200);
  // the request cut off mid-body is a client that went away, not an internal error
  expect(logs.filter((line) => line.includes("internal error"))).toEqual([]);
  expect((await t.quote({})).status).toBe(200);
}, 40_000);
