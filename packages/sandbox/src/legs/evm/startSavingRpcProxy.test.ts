import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { isStateChangingRpcMethod, type SavingRpcProxy, startSavingRpcProxy } from "./startSavingRpcProxy.js";

/** A stand-in JSON-RPC engine: answers every call with `0x<method length>`, receipts at once, and logs what it saw. */
async function startFakeEngine(seen: string[]): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const parsed = JSON.parse(body) as { id: number; method: string } | { id: number; method: string }[];
      const answer = (call: { id: number; method: string }) => {
        seen.push(call.method);
        const result =
          call.method === "eth_getTransactionReceipt" ? { status: "0x1" } : `0x${call.method.length}`;
        return { jsonrpc: "2.0", id: call.id, result };
      };
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

async function setUp(save: () => Promise<void>) {
  const seen: string[] = [];
  const engine = await startFakeEngine(seen);
  open.push(engine.server);
  const proxy: SavingRpcProxy = await startSavingRpcProxy({ target: engine.url, save, log: () => {} });
  open.push(proxy);
  const call = (body: unknown) =>
    fetch(proxy.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  return { seen, call };
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
});
