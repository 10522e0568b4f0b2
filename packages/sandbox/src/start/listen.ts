import { createServer, type Server, type ServerResponse } from "node:http";
import { getRequestListener } from "@hono/node-server";
import type { Hono } from "hono";
import { answerClientError, answerRequestError, MAX_HEADER_BYTES } from "../http/answerClientError.js";
import { SLOW_CLIENT_TIMEOUTS } from "../http/slowClientTimeouts.js";

/**
 * Serve `app` on 127.0.0.1:`port` (0 picks a free one); resolves once the server listens. A request the adapter
 * cannot turn into a URL (`OPTIONS *`, a Host header that is not a host) gets the API's JSON error too; a request
 * without Host (HTTP/1.0 style) is served as if sent to 127.0.0.1. Slow clients are cut off with a 408
 * `REQUEST_TIMEOUT` ({@link SLOW_CLIENT_TIMEOUTS}).
 */
export async function listen(app: Hono, port: number): Promise<Server> {
  const listener = getRequestListener(app.fetch, {
    hostname: "127.0.0.1",
    errorHandler: answerRequestError,
  });
  return new Promise<Server>((resolve, reject) => {
    const s = createServer(
      {
        maxHeaderSize: MAX_HEADER_BYTES,
        requireHostHeader: false,
        ...SLOW_CLIENT_TIMEOUTS,
      },
      listener,
    );
    const open = new Set<ServerResponse>();
    inFlight.set(s, open);
    s.on("request", (_request, response: ServerResponse) => {
      // once the server is closing, the answer also ends the connection (a keep-alive one would hold close up)
      if (!s.listening) response.setHeader("Connection", "close");
      open.add(response);
      response.once("close", () => open.delete(response));
    });
    s.once("error", reject);
    s.on("clientError", answerClientError);
    s.listen(port, "127.0.0.1", () => resolve(s));
  });
}

/** How long {@link closeServer} waits for the requests in flight to be answered before it drops them, ms. */
const CLOSE_GRACE_MS = 5_000;

/** The responses not yet finished, per server (see {@link closeServer}). */
const inFlight = new WeakMap<Server, Set<ServerResponse>>();

/**
 * Stop accepting connections, close the idle ones, let the requests in flight be answered (each answer says
 * `Connection: close`), then resolve; what is still open after {@link CLOSE_GRACE_MS} is dropped. The legs and the
 * database close after this, so a request in flight is answered with its outcome (stored or not) instead of a
 * dropped socket that leaves the client guessing.
 */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    for (const response of inFlight.get(server) ?? [])
      if (!response.headersSent) response.setHeader("Connection", "close");
    server.closeIdleConnections();
  });
}
