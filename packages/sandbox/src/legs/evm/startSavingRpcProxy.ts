import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { closeGracefully, trackRequestsInFlight } from "../../net/closeGracefully.js";
import { SLOW_CLIENT_TIMEOUTS } from "../../net/slowClientTimeouts.js";

/** A running JSON-RPC proxy in front of an engine. */
export interface SavingRpcProxy {
  /** `http://127.0.0.1:PORT`: the URL users are given instead of the engine's. */
  url: string;
  /** Stop accepting requests, answer those in flight (at most 5 s), close the connections. Idempotent. */
  close(): Promise<void>;
}

/** Methods that never change the chain: answered without a save. Every other method is followed by one. */
const READ_ONLY_METHODS = new Set([
  "eth_call",
  "eth_chainId",
  "eth_blockNumber",
  "eth_estimateGas",
  "eth_gasPrice",
  "eth_feeHistory",
  "eth_maxPriorityFeePerGas",
  "eth_blobBaseFee",
  "eth_accounts",
  "eth_syncing",
  "eth_mining",
  "eth_hashrate",
  "eth_coinbase",
  "eth_protocolVersion",
  "eth_createAccessList",
  "eth_simulateV1",
  "eth_newFilter",
  "eth_newBlockFilter",
  "eth_newPendingTransactionFilter",
  "eth_uninstallFilter",
  "net_version",
  "net_listening",
  "net_peerCount",
  "web3_clientVersion",
  "web3_sha3",
  "anvil_nodeInfo",
  "anvil_metadata",
]);
const READ_ONLY_PREFIXES = ["eth_get", "debug_", "trace_", "ots_", "txpool_"];

/** Whether a JSON-RPC method may change the chain's state (unknown methods are assumed to). */
export function isStateChangingRpcMethod(method: unknown): boolean {
  if (typeof method !== "string") return false;
  if (READ_ONLY_METHODS.has(method)) return false;
  return !READ_ONLY_PREFIXES.some((prefix) => method.startsWith(prefix));
}

const SEND_METHODS = new Set(["eth_sendRawTransaction", "eth_sendTransaction", "eth_sendRawTransactionSync"]);
const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Calls in one batch at most: each sent transaction in it is waited for, so a batch's work must be bounded. */
export const MAX_BATCH_CALLS = 1_000;
const RECEIPT_WAIT_MS = 2_000;

interface RpcCall {
  id?: unknown;
  method?: unknown;
}
interface RpcReply {
  id?: unknown;
  result?: unknown;
  error?: unknown;
}

/** A JSON-RPC error answered by the proxy itself (the engine never saw the request). */
function rpcError(response: ServerResponse, status: number, code: number, message: string, extra = {}) {
  response
    .writeHead(status, { "content-type": "application/json", ...extra })
    .end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }));
}

/** The reply to `call`: the one with its id (a batch may be answered in any order), else the one at its index. */
function replyTo(call: RpcCall, index: number, replies: RpcReply[]): RpcReply | undefined {
  const id = call?.id;
  if (typeof id === "string" || typeof id === "number") {
    const byId = replies.find((reply) => reply?.id === id);
    if (byId) return byId;
  }
  return replies[index];
}

/**
 * Start a JSON-RPC proxy on 127.0.0.1 in front of `target` (anvil) that makes what users send straight to the
 * engine as durable as the sandbox's own writes: a request whose method may change the chain (anything but a known
 * read) is forwarded, a sent transaction is waited for until mined (at most 2 s), then `save()` runs, and only
 * then does the caller get the engine's answer. A user who saw a transaction hash or a receipt can therefore
 * count on it surviving a SIGKILL of the sandbox a moment later. Reads are forwarded as they are. What the proxy
 * refuses itself gets a JSON-RPC error body: a method other than POST/OPTIONS (405), a body over 8 MiB (413), a body
 * that is not JSON (400, -32700), a batch of more than {@link MAX_BATCH_CALLS} calls (400, -32600); a client that
 * drips its request or sends nothing gets node's 408 ({@link SLOW_CLIENT_TIMEOUTS}).
 */
export async function startSavingRpcProxy({
  target,
  save,
  log,
}: {
  target: string;
  save: () => Promise<void>;
  log: (message: string) => void;
}): Promise<SavingRpcProxy> {
  // Slow clients are cut off (408) as on the API's own server: a wallet's RPC calls arrive in milliseconds.
  const server = createServer(SLOW_CLIENT_TIMEOUTS, (request, response) => {
    handleRpcRequest({ request, response, target, save }).catch((error: unknown) => {
      // The save failed or the engine is gone: the caller must not take the call as durable.
      log(`rpc proxy: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent)
        response.writeHead(502, { "content-type": "application/json" }).end(
          JSON.stringify({
            jsonrpc: "2.0",
            id: null,
            error: { code: -32603, message: "engine unavailable" },
          }),
        );
      else response.destroy();
    });
  });
  trackRequestsInFlight(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    close() {
      // a call in flight (a transaction being mined and saved) is answered first, so the wallet learns its hash
      closing ??= closeGracefully(server);
      return closing;
    },
  };
}

/** Answer one HTTP request: CORS preflight, the proxy's own refusals, or the engine's answer (saved first when it may write). */
async function handleRpcRequest({
  request,
  response,
  target,
  save,
}: {
  request: IncomingMessage;
  response: ServerResponse;
  target: string;
  save: () => Promise<void>;
}): Promise<void> {
  // Browser wallets call the engine from their own origin, as they could call anvil itself.
  response.setHeader("access-control-allow-origin", "*");
  if (request.method === "OPTIONS") {
    response
      .writeHead(204, {
        "access-control-allow-methods": "POST, OPTIONS",
        "access-control-allow-headers": request.headers["access-control-request-headers"] ?? "content-type",
        "access-control-max-age": "600",
      })
      .end();
    return;
  }
  if (request.method !== "POST") {
    rpcError(response, 405, -32600, "JSON-RPC requests are POSTed.", { allow: "POST, OPTIONS" });
    return;
  }
  const read = await readRpcCalls({ request, response });
  if (!read) return;
  const answer = await forwardRpc({ target, body: read.body });
  if (read.calls.some((call) => isStateChangingRpcMethod(call?.method))) {
    await waitForSentTransactions({ target, calls: read.calls, answer: answer.text });
    await save();
  }
  response.writeHead(answer.status, { "content-type": answer.type }).end(answer.text);
}

/** The request's body and its calls (one, or a batch), or undefined once a refusal was answered (too large, not JSON, too many calls). */
async function readRpcCalls({
  request,
  response,
}: {
  request: IncomingMessage;
  response: ServerResponse;
}): Promise<{ body: Buffer; calls: RpcCall[] } | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      // The rest of the body is never read: the socket cannot carry another request.
      rpcError(response, 413, -32600, `The request is larger than ${MAX_BODY_BYTES} bytes.`, {
        connection: "close",
      });
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  const body = Buffer.concat(chunks);
  let calls: RpcCall[];
  try {
    const parsed = JSON.parse(body.toString("utf8")) as RpcCall | RpcCall[];
    calls = Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    rpcError(response, 400, -32700, "Parse error: the body is not JSON.");
    return undefined;
  }
  if (calls.length > MAX_BATCH_CALLS) {
    rpcError(response, 400, -32600, `A batch holds at most ${MAX_BATCH_CALLS} calls.`);
    return undefined;
  }
  return { body, calls };
}

/** Forward a JSON-RPC body to the engine as it is; its status, text and content type come back. */
async function forwardRpc({
  target,
  body,
}: {
  target: string;
  body: Buffer;
}): Promise<{ status: number; text: string; type: string }> {
  const response = await fetch(target, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: new Uint8Array(body),
  });
  return {
    status: response.status,
    text: await response.text(),
    type: response.headers.get("content-type") ?? "application/json",
  };
}

/** Wait until every transaction the calls sent (a hash in the engine's answer) is mined. */
async function waitForSentTransactions({
  target,
  calls,
  answer,
}: {
  target: string;
  calls: RpcCall[];
  answer: string;
}): Promise<void> {
  let replies: RpcReply[] = [];
  try {
    const parsed = JSON.parse(answer) as RpcReply | RpcReply[];
    replies = Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    // An answer that is not JSON changed nothing we could wait for; the caller still saves.
  }
  for (const [i, call] of calls.entries()) {
    const reply = replyTo(call, i, replies);
    if (SEND_METHODS.has(call?.method as string) && reply?.result !== undefined)
      await waitMined({ target, hash: reply.result });
  }
}

/** Wait until a sent transaction has a receipt (anvil mines on send; this covers a slower miner), at most 2 s. */
async function waitMined({ target, hash }: { target: string; hash: unknown }): Promise<void> {
  if (typeof hash !== "string") return;
  const body = Buffer.from(
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getTransactionReceipt", params: [hash] }),
  );
  const until = Date.now() + RECEIPT_WAIT_MS;
  while (Date.now() < until) {
    const answer = await forwardRpc({ target, body });
    if ((JSON.parse(answer.text) as RpcReply).result != null) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
