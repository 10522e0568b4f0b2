import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request as the test server received it. */
export interface ReceivedRequest {
  method: string;
  /** Path and query exactly as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  rawQuery: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the handler answers. `body` objects are sent as JSON; `hang` never answers; `destroy` drops the socket. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  hang?: boolean;
  destroy?: boolean;
}

export type Handler = (request: ReceivedRequest) => Reply | Promise<Reply>;

/** A real HTTP server on 127.0.0.1, port 0, recording every request. */
export interface TestServer {
  url: string;
  requests: ReceivedRequest[];
  /** Replaces the handler (and clears the recorded requests). */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export async function startTestServer(): Promise<TestServer> {
  let handler: Handler = () => ({ status: 404, body: { code: 404, message: "no handler", entity: "Other" } });
  const requests: ReceivedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const url = req.url ?? "/";
      const questionMark = url.indexOf("?");
      const received: ReceivedRequest = {
        method: req.method ?? "GET",
        url,
        path: questionMark === -1 ? url : url.slice(0, questionMark),
        rawQuery: questionMark === -1 ? "" : url.slice(questionMark + 1),
        query: new URLSearchParams(questionMark === -1 ? "" : url.slice(questionMark + 1)),
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(received);
      const reply = await handler(received);
      if (reply.destroy) {
        req.socket.destroy();
        return;
      }
      if (reply.hang) {
        hanging.add(res);
        return;
      }
      const body =
        reply.body === undefined
          ? ""
          : typeof reply.body === "string"
            ? reply.body
            : JSON.stringify(reply.body);
      res.writeHead(reply.status ?? 200, {
        ...(typeof reply.body === "object" ? { "content-type": "application/json" } : {}),
        ...reply.headers,
      });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      handler = next;
      requests.length = 0;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
