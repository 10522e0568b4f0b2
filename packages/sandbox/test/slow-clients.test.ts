import { afterAll, beforeAll, expect, test } from "vitest";
import { HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from "../src/net/slowClientTimeouts.js";
import { startTestSandbox, type TestSandbox } from "./support/harness.js";
import { type SlowClientOutcome, sendSlowly } from "./support/sendSlowly.js";
import { ErrorSchema } from "./support/specSchemas.js";

let t: TestSandbox;
const logs: string[] = [];
beforeAll(async () => {
  t = await startTestSandbox({ log: (message) => logs.push(message) });
});
afterAll(() => t?.close());

function expectTimeoutAnswer(result: SlowClientOutcome, limitMs: number) {
  expect(result).not.toBe("held");
  if (result === "held") return;
  const [head = "", body = ""] = result.answer.split("\r\n\r\n", 2);
  expect(head).toMatch(/^HTTP\/1\.1 408 /);
  expect(head.toLowerCase()).toContain("connection: close");
  const parsed = JSON.parse(body);
  expect(parsed).toMatchObject({ code: 408, type: "REQUEST_TIMEOUT" });
  ErrorSchema.parse(parsed);
  expect(result.afterMs).toBeLessThan(limitMs);
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
  const post = "POST /affiliate/v1/quotes/best HTTP/1.1\r\nHost: x\r\nx-api-key: k\r\n";
  const [headers, body, silent, served] = await Promise.all([
    sendSlowly({ port, head: "GET /affiliate/v1/networks HTTP/1.1\r\n", drip: "x-a: b\r\n", giveUpMs }),
    sendSlowly({
      port,
      head: `${post}content-type: application/json\r\ncontent-length: 100000\r\n\r\n`,
      drip: '{"a":1,',
      giveUpMs,
    }),
    sendSlowly({ port, head: "", drip: "", giveUpMs }),
    (async () => {
      // a normal client is answered while the slow ones hold their sockets
      await new Promise((r) => setTimeout(r, 1_000));
      return (await t.quote({})).status;
    })(),
  ]);
  expectTimeoutAnswer(headers, HEADERS_TIMEOUT_MS + 2_500);
  expectTimeoutAnswer(body, REQUEST_TIMEOUT_MS + 2_500);
  expectTimeoutAnswer(silent, HEADERS_TIMEOUT_MS + 2_500);
  expect(served).toBe(200);
  // the request cut off mid-body is a client that went away, not an internal error
  expect(logs.filter((line) => line.includes("internal error"))).toEqual([]);
  expect((await t.quote({})).status).toBe(200);
}, 40_000);
