import { createServer, Server } from "node:http";
import type { AddressInfo } from "node:net";
import { watchResponses } from "@swapintent/testing/watchResponses";
import { afterEach, describe, expect, test, vi } from "vitest";
import { sendSlowly } from "../../../test/support/sendSlowly.js";
import { HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from "../../net/slowClientTimeouts.js";
import {
  isStateChangingRpcMethod,
  MAX_BATCH_CALLS,
  type SavingRpcProxy,
  startSavingRpcProxy,
} from "./startSavingRpcProxy.js";

/**
 * A stand-in JSON-RPC engine: answers every call with `0x<method length>`, receipts at once, and logs what it saw;
 * with `reverse`, a batch's replies come in reverse order (JSON-RPC allows any order).
 */
async function startFakeEngine(
  seen: string[],
  reverse = false,
  receiptsAskedFor: unknown[] = [],
): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      type Call = { id: number; method: string; params?: unknown[] };
      const parsed = JSON.parse(body) as Call | Call[];
      const answer = (call: Call) => {
        seen.push(call.method);
        if (call.method === "eth_getTransactionReceipt") receiptsAskedFor.push(call.params?.[0]);
        const result =
          call.method === "eth_getTransactionReceipt" ? { status: "0x1" } : `0x${call.method.length}`;
        return { jsonrpc: "2.0", id: call.id, result };
      };
      response.setHeader("content-type", "application/json");
      const replies = Array.isArray(parsed) ? parsed.map(answer) : answer(parsed);
      response.end(JSON.stringify(Array.isArray(replies) && reverse ? replies.reverse() : replies));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

async function setUp(save: () => Promise<void>, { reverse = false } = {}) {
  const seen: string[] = [];
  const receiptsAskedFor: unknown[] = [];
  const engine = await startFakeEngine(seen, reverse, receiptsAskedFor);
  open.push(engine.server);
  const proxy: SavingRpcProxy = await startSavingRpcProxy({ target: engine.url, save, log: () => {} });
  open.push(proxy);
  const call = (body: unknown) =>
    fetch(proxy.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  return { seen, call, url: proxy.url, receiptsAskedFor, proxy };
}

describe("isStateChangingRpcMethod", () => {
  test("reads are not writes; sends, anvil_/evm_ cheats and unknown methods are", () => {
    for (const m of [
      "eth_call",
      "eth_getBalance",
      "eth_getTransactionReceipt",
      "eth_chainId",
      "debug_traceCall",
    ])
      expect(isStateChangingRpcMethod(m)).toBe(false);
    for (const m of [
      "eth_sendRawTransaction",
      "eth_sendTransaction",
      "anvil_setBalance",
      "evm_mine",
      "hardhat_x",
      "new_method",
    ])
      expect(isStateChangingRpcMethod(m)).toBe(true);
    expect(isStateChangingRpcMethod(42)).toBe(false);
  });
});

describe("startSavingRpcProxy", () => {
  test("a sent transaction is answered only after it was mined and the save finished", async () => {
    const events: string[] = [];
    let releaseSave: () => void = () => {};
    const { seen, call } = await setUp(async () => {
      events.push("save started");
      await new Promise<void>((resolve) => {
        releaseSave = resolve;
      });
      events.push("save done");
    });
    const pending = call({ jsonrpc: "2.0", id: 7, method: "eth_sendRawTransaction", params: ["0x00"] }).then(
      async (r) => {
        events.push("answered");
        return r.json();
      },
    );
    while (!events.includes("save started")) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(events).toEqual(["save started"]);
    releaseSave();
    expect(await pending).toEqual({ jsonrpc: "2.0", id: 7, result: "0x22" });
    expect(events).toEqual(["save started", "save done", "answered"]);
    expect(seen).toEqual(["eth_sendRawTransaction", "eth_getTransactionReceipt"]);
  });

  test("reads pass through without a save; a batch with one write is saved once", async () => {
    let saves = 0;
    const { call } = await setUp(async () => {
      saves++;
    });
    await (await call({ jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: [] })).json();
    await (await call([{ jsonrpc: "2.0", id: 1, method: "eth_call", params: [] }])).json();
    expect(saves).toBe(0);
    const batch = (await (
      await call([
        { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] },
        { jsonrpc: "2.0", id: 2, method: "anvil_setBalance", params: [] },
      ])
    ).json()) as unknown[];
    expect(batch).toHaveLength(2);
    expect(saves).toBe(1);
  });

  test("answers a browser's CORS preflight and marks answers readable from any origin", async () => {
    const { seen, call } = await setUp(async () => {});
    const base = new URL((await call({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] })).url)
      .origin;
    const preflight = await fetch(base, {
      method: "OPTIONS",
      headers: { origin: "http://wallet.test", "access-control-request-headers": "content-type" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    const answer = await call({ jsonrpc: "2.0", id: 2, method: "eth_chainId", params: [] });
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(seen.filter((m) => m === "eth_chainId")).toHaveLength(2);
  });

  test("when the save fails the caller gets a JSON-RPC error (502), not the transaction hash", async () => {
    const { call } = await setUp(async () => {
      throw new Error("disk full");
    });
    const r = await call({ jsonrpc: "2.0", id: 3, method: "eth_sendRawTransaction", params: ["0x00"] });
    expect(r.status).toBe(502);
    const body = (await r.json()) as { error?: { code: number }; result?: unknown };
    expect(body.result).toBeUndefined();
    expect(body.error?.code).toBe(-32603);
  });

  test("what the proxy refuses itself is a JSON-RPC error body, and the engine never sees it", async () => {
    let saves = 0;
    const { seen, call, url } = await setUp(async () => {
      saves++;
    });
    const expectRpcError = async (r: Response, status: number, code: number) => {
      expect(r.status).toBe(status);
      expect(r.headers.get("content-type")).toContain("application/json");
      const body = (await r.json()) as { jsonrpc: string; error: { code: number; message: string } };
      expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code } });
      expect(body.error.message).not.toBe("");
    };
    for (const method of ["GET", "PUT", "DELETE", "PATCH"])
      await expectRpcError(await fetch(url, { method }), 405, -32600);
    for (const body of ["{", "not json", '{"a":"\\x41"}', "", "\u0000"])
      await expectRpcError(await fetch(url, { method: "POST", body }), 400, -32700);
    const batch = Array.from({ length: MAX_BATCH_CALLS + 1 }, (_, i) => ({
      jsonrpc: "2.0",
      id: i,
      method: "evm_mine",
    }));
    await expectRpcError(await call(batch), 400, -32600);
    await expectRpcError(
      await fetch(url, { method: "POST", body: `[${"1,".repeat(4.5 * 1024 * 1024)}1]` }),
      413,
      -32600,
    );
    expect(seen).toEqual([]);
    expect(saves).toBe(0);
    // a batch of the largest size is served (and saved once)
    const full = batch.slice(0, MAX_BATCH_CALLS);
    expect(((await (await call(full)).json()) as unknown[]).length).toBe(MAX_BATCH_CALLS);
    expect(saves).toBe(1);
  });

  test("a batch answered out of order: each sent transaction's own hash is waited for", async () => {
    const { call, receiptsAskedFor } = await setUp(async () => {}, { reverse: true });
    const replies = (await (
      await call([
        { jsonrpc: "2.0", id: 1, method: "eth_sendRawTransaction", params: ["0x00"] },
        { jsonrpc: "2.0", id: 2, method: "eth_chainId", params: [] },
      ])
    ).json()) as { id: number }[];
    expect(replies.map((r) => r.id).sort()).toEqual([1, 2]);
    // the receipt asked for is the send's hash (0x22, its reply's id is 1), not eth_chainId's answer at index 0
    expect(receiptsAskedFor).toEqual(["0x22"]);
  });

  test("a client that drips its request, or sends nothing, is cut off (408) in bounded time; others are served meanwhile", async () => {
    // the bound is the server's own: its header and request timeouts, checked every 500 ms (node's default check,
    // every 30 s, let a slow client hold on up to 30 s longer)
    const listening = vi.spyOn(Server.prototype, "listen");
    const { call, url } = await setUp(async () => {});
    // node sets connectionsCheckingInterval on the server but does not declare it
    const servers = listening.mock.contexts as (Server & { connectionsCheckingInterval?: number })[];
    listening.mockRestore();
    const port = Number(new URL(url).port);
    const server = servers.find((s) => (s.address() as AddressInfo | null)?.port === port);
    expect(
      server && [server.headersTimeout, server.requestTimeout, server.connectionsCheckingInterval],
    ).toEqual([HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, 500]);
    const cutOff: string[] = [];
    const giveUpMs = REQUEST_TIMEOUT_MS + 5_000;
    const post = "POST / HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n";
    const [body, silent, served] = await Promise.all([
      sendSlowly({
        port,
        head: `${post}content-length: 100000\r\n\r\n`,
        drip: '{"jsonrpc":"2.0",',
        giveUpMs,
      }).finally(() => cutOff.push("dripping a body")),
      sendSlowly({ port, head: "", drip: "", giveUpMs }).finally(() => cutOff.push("silent")),
      (async () => {
        await new Promise((r) => setTimeout(r, 1_000));
        return (await call({ jsonrpc: "2.0", id: 1, method: "eth_chainId" })).status;
      })(),
    ]);
    // each by the server (408), not by the client giving up; the one without headers at the shorter headers timeout
    for (const result of [body, silent]) {
      expect(result).not.toBe("held");
      if (result === "held") continue;
      expect(result.answer).toMatch(/^HTTP\/1\.1 408 /);
    }
    expect(cutOff).toEqual(["silent", "dripping a body"]);
    expect(served).toBe(200);
  }, 30_000);

  test("close() mid-save answers the call in flight before it returns: the wallet gets its hash, not a dropped socket", async () => {
    let entered!: () => void;
    const saving = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { call, proxy } = await setUp(async () => {
      entered();
      await held;
    });
    const sent = call({ jsonrpc: "2.0", id: 7, method: "eth_sendRawTransaction", params: ["0x00"] }).then(
      async (r) => ({ status: r.status, body: (await r.json()) as { result?: string } }),
      (error: unknown) => error,
    );
    await saving;
    // closed as soon as the answer went out: the answer ends its connection, and the grace drops nothing
    const dropped = vi.spyOn(Server.prototype, "closeAllConnections");
    const responses = watchResponses();
    try {
      const closed = proxy.close();
      await new Promise((resolve) => setImmediate(resolve));
      release();
      expect(await sent).toMatchObject({ status: 200, body: { result: "0x22" } });
      await closed;
      const port = Number(new URL(proxy.url).port);
      expect(responses.sent.filter((r) => r.port === port)).toEqual([
        { port, url: "/", status: 200, keepAlive: false },
      ]);
      expect(dropped).not.toHaveBeenCalled();
    } finally {
      responses.stop();
      dropped.mockRestore();
    }
  });
});
