/**
 * What a server can make the client spend, against real node:http servers: compression bombs, bodies and headers
 * that never end, lying lengths, thousands of headers, huge lists, concurrent waits, and bodies streamed in chunks
 * that split a character. Each ends bounded, with a coded error or the exact text.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, constants, deflateSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { intentId, networksWire, statusWire } from "../../test/fixtures.js";
import { rejection } from "../../test/helpers.js";
import { useTestServer } from "../../test/hostileServer.js";
import { createSwapIntentClient } from "./createSwapIntentClient.js";

const apiKey = "sk_live_Hostile2Key9";

const { server, client } = useTestServer(apiKey);

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

describe("memory and time a server can make the client spend are bounded", () => {
  // brotli at quality 4: spaces shrink as far as at its default 11 (a few hundred bytes), in a fifteenth of the time
  const brotli = (data: Buffer) =>
    brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
  const encoders = { gzip: gzipSync, deflate: deflateSync, br: brotli } as const;
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
